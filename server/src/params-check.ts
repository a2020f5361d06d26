/**
 * Checks a request's params at the edge, before a feature reads them: a client (or a fuzzer) that
 * sends `range: null` or no position gets LSP's InvalidParams answer and the server one log line,
 * instead of a TypeError deep in a feature logged with its stack as if the server were at fault.
 * Only the structure is checked; values out of range (negative, past the end) are clamped later.
 */
import { ErrorCodes, ResponseError } from 'vscode-languageserver';

/** Says what is wrong with `value`, or undefined when it has the structure wanted. */
export type ParamsCheck = (value: unknown) => string | undefined;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/** `v` names a document: `{ uri: string }`. */
export const documentId: ParamsCheck = (v) =>
  isRecord(v) && typeof v.uri === 'string' ? undefined : 'it needs a document ({ uri: string })';

/** `v` is an LSP position. */
export const position: ParamsCheck = (v) =>
  isRecord(v) && Number.isFinite(v.line) && Number.isFinite(v.character)
    ? undefined
    : `a position is { line, character } with numbers, not ${describe(v)}`;

/** `v` is an LSP range. */
export const range: ParamsCheck = (v) =>
  isRecord(v) && position(v.start) === undefined && position(v.end) === undefined
    ? undefined
    : `a range is { start, end } with positions, not ${describe(v)}`;

/** Checks each named field of the params with its check, in order; the first problem wins. */
export function fields(checks: Record<string, ParamsCheck>): ParamsCheck {
  return (params) => {
    if (!isRecord(params)) return `the params are an object, not ${describe(params)}`;
    for (const [name, check] of Object.entries(checks)) {
      const problem = check(params[name]);
      if (problem !== undefined) return `${name}: ${problem}`;
    }
    return undefined;
  };
}

/** Any object (a field whose own fields the feature reads with defaults). */
export const object: ParamsCheck = (v) =>
  isRecord(v) ? undefined : `an object is wanted, not ${describe(v)}`;

/** A string. */
export const text: ParamsCheck = (v) =>
  typeof v === 'string' ? undefined : `a string is wanted, not ${describe(v)}`;

/** An array whose every element passes `check`. */
export function list(check: ParamsCheck): ParamsCheck {
  return (v) => {
    if (!Array.isArray(v)) return `an array is wanted, not ${describe(v)}`;
    for (let i = 0; i < v.length; i++) {
      const problem = check(v[i]);
      if (problem !== undefined) return `[${i}]: ${problem}`;
    }
    return undefined;
  };
}

/** Throws InvalidParams (which the guard passes on) when `check` finds a problem in `params`. */
export function requireValid(method: string, check: ParamsCheck, params: unknown): void {
  const problem = check(params);
  if (problem !== undefined)
    throw new ResponseError(ErrorCodes.InvalidParams, `${method}: invalid params: ${problem}`);
}
