/**
 * Validation of command arguments that may come from untrusted places: a hover's `command:` link is
 * built from document text, so `xlaLayout.openVisualizer` and `xlaLayout.openSource` check every
 * field before using it.
 * Free of `vscode` so it can be unit-tested in plain Node.
 */
import type { OpenSourceArgs, Position, Range } from '../../protocol/src/lsp';

/** Arguments of `xlaLayout.openVisualizer`. */
export interface VisualizerArgs {
  readonly shape: string;
  readonly uri?: string;
  readonly range?: Range;
}

/** Longest shape text accepted from a link; real shapes are far shorter, tuples included. */
export const MAX_SHAPE_LENGTH = 100_000;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function position(v: unknown): Position | undefined {
  if (!isRecord(v)) return undefined;
  const { line, character } = v;
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return ok(line) && ok(character) ? { line, character } : undefined;
}

/** A JSON range with non-negative integer positions and start <= end; undefined otherwise. */
export function parseRange(v: unknown): Range | undefined {
  if (!isRecord(v)) return undefined;
  const start = position(v.start);
  const end = position(v.end);
  if (start === undefined || end === undefined) return undefined;
  if (end.line < start.line || (end.line === start.line && end.character < start.character)) return undefined;
  return { start, end };
}

/** A URI string with a scheme (`file:`, `untitled:`, `vscode-vfs:` …); rejects anything else. */
function uriString(v: unknown): string | undefined {
  return typeof v === 'string' && v.length < 8192 && /^[a-z][a-z0-9+.-]*:/i.test(v) ? v : undefined;
}

/**
 * Accepts `{ shape, uri?, range? }` (or a one-element array of it, as `command:` links may pass
 * it). Unknown fields are dropped; a bad optional field is dropped, a bad shape refuses the call.
 */
export function parseVisualizerArgs(arg: unknown): VisualizerArgs | undefined {
  const v = Array.isArray(arg) && arg.length === 1 ? (arg[0] as unknown) : arg;
  if (!isRecord(v)) return undefined;
  const { shape } = v;
  if (typeof shape !== 'string' || shape.trim() === '' || shape.length > MAX_SHAPE_LENGTH) return undefined;
  const uri = uriString(v.uri);
  const range = parseRange(v.range);
  return { shape, ...(uri !== undefined ? { uri } : {}), ...(range !== undefined ? { range } : {}) };
}

/**
 * Accepts `{ uri, line, dump? }` (or a one-element array of it): URIs with a scheme and a 0-based
 * line. A bad `dump` is dropped.
 */
export function parseOpenSourceArgs(arg: unknown): OpenSourceArgs | undefined {
  const v = Array.isArray(arg) && arg.length === 1 ? (arg[0] as unknown) : arg;
  if (!isRecord(v)) return undefined;
  const uri = uriString(v.uri);
  const { line } = v;
  if (uri === undefined || typeof line !== 'number' || !Number.isSafeInteger(line) || line < 0)
    return undefined;
  const dump = uriString(v.dump);
  return { uri, line, ...(dump !== undefined ? { dump } : {}) };
}
