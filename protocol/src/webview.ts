/**
 * Messages between the extension host (client/src/visualizer/panel.ts) and the layout visualizer
 * webview (webview/src/main.ts), defined once and validated on BOTH ends: a webview is a separate
 * page whose messages are untrusted input to the host, and the host's messages carry document text.
 * The validators are hand-written so that neither end pulls in a schema library.
 */
import type { Position, Range } from './lsp';

/** Where the shape came from, shown in the page (as text only) and used for "reveal in editor". */
export interface ShapeSource {
  /** A short human name, e.g. `model.hlo:12`; document text, so rendered with textContent only. */
  readonly name: string;
  readonly uri?: string;
  readonly range?: Range;
}

/** Host → webview: visualize this shape (replaces whatever the panel showed). */
export interface ShowShapeMessage {
  readonly type: 'show';
  readonly shape: string;
  /** A second layout of the same array for compare mode. */
  readonly compareWith?: string;
  readonly source?: ShapeSource;
}

/** Host → webview: how an export request ended (`detail` is the saved path or the reason). */
export interface ExportResultMessage {
  readonly type: 'exportResult';
  readonly ok: boolean;
  readonly detail: string;
}

/**
 * Host → webview: whether the panel follows the editor (shows the shape at the cursor of the
 * active HLO editor), as the Markdown preview's lock does; the page shows it on its toggle.
 */
export interface FollowStateMessage {
  readonly type: 'follow';
  readonly on: boolean;
}

export type HostToWebviewMessage = ShowShapeMessage | ExportResultMessage | FollowStateMessage;

/** Webview → host: the page's script has started and listens for messages. */
export interface ReadyMessage {
  readonly type: 'ready';
}

/**
 * Webview → host: jump to the source of the shape. It carries no location on purpose: the host
 * reveals only the range it sent itself, so a page can never make the editor open arbitrary URIs.
 */
export interface RevealMessage {
  readonly type: 'reveal';
}

/** Webview → host: save a picture through the host's save dialog. */
export interface ExportMessage {
  readonly type: 'export';
  readonly format: 'png' | 'svg';
  /** Suggested file name: letters, digits, `._-` only, ending in `.png` / `.svg`. */
  readonly fileName: string;
  /** PNG: base64 without a `data:` prefix. SVG: the document text. */
  readonly data: string;
}

/** Webview → host: the user turned following the editor on or off on the page's toggle. */
export interface FollowMessage {
  readonly type: 'follow';
  readonly on: boolean;
}

/**
 * Webview → host: the first pane now shows `shape` (typed into the Shape box, or an element picked
 * from a tuple), for the panel's title. `element` is set when the shape is an element of the shape
 * the host sent: its offsets in that text, so "reveal" can select the element; the host maps them
 * into the range it sent itself and never further.
 */
export interface ShowingMessage {
  readonly type: 'showing';
  readonly shape: string;
  readonly element?: { readonly start: number; readonly end: number };
}

export type WebviewToHostMessage =
  ReadyMessage | RevealMessage | ExportMessage | FollowMessage | ShowingMessage;

export type Validated<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/** Longest shape text accepted (HLO tuple shapes run to tens of thousands of characters). */
export const MAX_SHAPE_LENGTH = 1_000_000;
/** Largest export payload accepted (a 4K canvas PNG is a few MB; SVGs are capped by the page). */
const MAX_EXPORT_LENGTH = 64 * 1024 * 1024;
const MAX_NAME_LENGTH = 1000;
const MAX_URI_LENGTH = 8192;
const FILE_NAME = /^[A-Za-z0-9._-]{1,120}$/;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Rejects keys beyond `allowed`, so that a typo or an injected field is noticed, not ignored. */
function extraKey(value: Obj, allowed: readonly string[]): string | undefined {
  return Object.keys(value).find((k) => !allowed.includes(k));
}

function isString(value: unknown, max: number): value is string {
  return typeof value === 'string' && value.length <= max;
}

function isPosition(value: unknown): value is Position {
  return (
    isObject(value) &&
    extraKey(value, ['line', 'character']) === undefined &&
    Number.isSafeInteger(value.line) &&
    (value.line as number) >= 0 &&
    Number.isSafeInteger(value.character) &&
    (value.character as number) >= 0
  );
}

/** A JSON LSP range: `{ start: { line, character }, end: { line, character } }`, start <= end. */
export function isRange(value: unknown): value is Range {
  if (!isObject(value) || extraKey(value, ['start', 'end']) !== undefined) return false;
  if (!isPosition(value.start) || !isPosition(value.end)) return false;
  const { start, end } = value;
  return start.line < end.line || (start.line === end.line && start.character <= end.character);
}

function checkSource(value: unknown): string | undefined {
  if (!isObject(value)) return 'source must be an object';
  const extra = extraKey(value, ['name', 'uri', 'range']);
  if (extra !== undefined) return `unexpected source field ${extra}`;
  if (!isString(value.name, MAX_NAME_LENGTH)) return 'source.name must be a string';
  if (value.uri !== undefined && !isString(value.uri, MAX_URI_LENGTH)) return 'source.uri must be a string';
  if (value.range !== undefined && !isRange(value.range)) return 'source.range must be a range';
  return undefined;
}

function fail<T>(error: string): Validated<T> {
  return { ok: false, error };
}

/** `{ type: 'follow', on }`, the same in both directions. */
function checkFollow<T extends FollowMessage | FollowStateMessage>(value: Obj): Validated<T> {
  const extra = extraKey(value, ['type', 'on']);
  if (extra !== undefined) return fail(`unexpected field ${extra}`);
  if (typeof value.on !== 'boolean') return fail('on must be a boolean');
  return { ok: true, value: { type: 'follow', on: value.on } as T };
}

/** Validates a message received by the webview. */
export function validateHostToWebview(value: unknown): Validated<HostToWebviewMessage> {
  if (!isObject(value)) return fail('message must be an object');
  switch (value.type) {
    case 'show': {
      const extra = extraKey(value, ['type', 'shape', 'compareWith', 'source']);
      if (extra !== undefined) return fail(`unexpected field ${extra}`);
      if (!isString(value.shape, MAX_SHAPE_LENGTH)) return fail('shape must be a string');
      if (value.compareWith !== undefined && !isString(value.compareWith, MAX_SHAPE_LENGTH))
        return fail('compareWith must be a string');
      if (value.source !== undefined) {
        const error = checkSource(value.source);
        if (error !== undefined) return fail(error);
      }
      return { ok: true, value: value as unknown as ShowShapeMessage };
    }
    case 'follow':
      return checkFollow(value);
    case 'exportResult': {
      const extra = extraKey(value, ['type', 'ok', 'detail']);
      if (extra !== undefined) return fail(`unexpected field ${extra}`);
      if (typeof value.ok !== 'boolean') return fail('ok must be a boolean');
      if (!isString(value.detail, MAX_URI_LENGTH)) return fail('detail must be a string');
      return { ok: true, value: value as unknown as ExportResultMessage };
    }
    default:
      return fail('unknown message type');
  }
}

/** Validates a message received by the extension host from the webview. */
export function validateWebviewToHost(value: unknown): Validated<WebviewToHostMessage> {
  if (!isObject(value)) return fail('message must be an object');
  switch (value.type) {
    case 'ready':
    case 'reveal': {
      const extra = extraKey(value, ['type']);
      if (extra !== undefined) return fail(`unexpected field ${extra}`);
      return { ok: true, value: { type: value.type } };
    }
    case 'follow':
      return checkFollow(value);
    case 'showing': {
      const extra = extraKey(value, ['type', 'shape', 'element']);
      if (extra !== undefined) return fail(`unexpected field ${extra}`);
      if (!isString(value.shape, MAX_SHAPE_LENGTH)) return fail('shape must be a string');
      const element = value.element;
      if (element !== undefined) {
        const offset = (n: unknown): n is number =>
          Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= MAX_SHAPE_LENGTH;
        if (
          !isObject(element) ||
          extraKey(element, ['start', 'end']) !== undefined ||
          !offset(element.start) ||
          !offset(element.end) ||
          element.start > element.end
        )
          return fail('element must be { start, end } offsets with start <= end');
        return {
          ok: true,
          value: { type: 'showing', shape: value.shape, element: { start: element.start, end: element.end } },
        };
      }
      return { ok: true, value: { type: 'showing', shape: value.shape } };
    }
    case 'export': {
      const extra = extraKey(value, ['type', 'format', 'fileName', 'data']);
      if (extra !== undefined) return fail(`unexpected field ${extra}`);
      const { format, fileName, data } = value;
      if (format !== 'png' && format !== 'svg') return fail('format must be png or svg');
      if (typeof fileName !== 'string' || !FILE_NAME.test(fileName) || !fileName.endsWith(`.${format}`)) {
        return fail(`fileName must be a plain name ending in .${format}`);
      }
      if (!isString(data, MAX_EXPORT_LENGTH) || data.length === 0)
        return fail('data must be a non-empty string');
      if (format === 'png' && !BASE64.test(data)) return fail('png data must be base64');
      if (format === 'svg' && !data.startsWith('<svg')) return fail('svg data must be an <svg> document');
      return { ok: true, value: { type: 'export', format, fileName, data } };
    }
    default:
      return fail('unknown message type');
  }
}
