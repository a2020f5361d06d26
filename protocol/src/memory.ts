/**
 * The Memory View's messages, defined once and imported by both ends: the LSP notification that
 * hands the language server a dump's buffer assignment (the server has no file system in the
 * browser, so the client finds the companion by name and sends its text), and the messages between
 * the extension host (client/src/memory-view/panel.ts) and the Memory View webview
 * (webview/src/memory/main.ts), validated on both ends like the visualizer's.
 */
import type { MemoryModuleJson } from '../../core/src';
import type { Validated } from './webview';

/**
 * Client → server notification: the text of the `*-buffer-assignment.txt` beside the HLO document
 * `uri`, or `null` when there is none (any earlier text is forgotten). Hovers on instructions then
 * show their allocation.
 */
export const BufferAssignmentNotification = 'xlaLayout/bufferAssignment';
export interface BufferAssignmentParams {
  /** The HLO document's URI. */
  readonly uri: string;
  readonly text: string | null;
}

/** Largest buffer assignment sent to the server (a 40 MB one holds about 400,000 values). */
export const MAX_BUFFER_ASSIGNMENT_CHARS = 64 * 1024 * 1024;

/** What the page shows: one module dump's memory, and where its files are. */
export interface ShowMemoryMessage {
  readonly type: 'show';
  /**
   * The dump's URI. The page only keeps it in its state, which VS Code hands back to the extension
   * to show the same dump after a reload; the page never opens it.
   */
  readonly uri: string;
  /** A short name of the dump (`module_0032.jit_step.cpu_after_optimizations.txt`), shown as text. */
  readonly name: string;
  /** The companion files found beside it, by name (shown as text). */
  readonly files: readonly string[];
  readonly module: MemoryModuleJson;
}

/** Host → webview: the host could not read the dump (shown as text). */
export interface MemoryErrorMessage {
  readonly type: 'error';
  readonly message: string;
}

/** One module of a dump folder in its ranking (byte counts as decimal strings). */
export interface FolderModule {
  readonly module: string;
  /** The dump's file name (shown as text). */
  readonly name: string;
  readonly basis: 'buffer-assignment' | 'estimate';
  readonly totalBytes: string;
  readonly peakBytes?: string;
  readonly paddingBytes: string;
  readonly allocations: number;
}

/** Host → webview: a dump folder's modules, largest total first; a row opens its module. */
export interface ShowFolderMessage {
  readonly type: 'showFolder';
  /** The folder's URI, kept in the page's state like a dump's. */
  readonly uri: string;
  readonly name: string;
  readonly modules: readonly FolderModule[];
}

export type HostToMemoryMessage = ShowMemoryMessage | ShowFolderMessage | MemoryErrorMessage;

/** Webview → host: the page has started and waits for `show`. */
export interface MemoryReadyMessage {
  readonly type: 'ready';
}

/**
 * Webview → host: open the instruction of a value, or its source line. It names the value by its
 * place in the model the host sent (allocation index, value index within it); the host looks the
 * location up in its own copy, so a page can never make the editor open arbitrary files.
 */
export interface MemoryRevealMessage {
  readonly type: 'reveal' | 'openSource';
  /** The allocation's `index` (as XLA numbers it). */
  readonly allocation: number;
  /** The value's position in that allocation's `values` as sent. */
  readonly value: number;
}

/**
 * Webview → host: open the instruction (or the source line) of the largest value of a group of
 * "Live at the peak", named by its position in the model's `peak.groups`.
 */
export interface MemoryPeakRevealMessage {
  readonly type: 'reveal' | 'openSource';
  readonly peakGroup: number;
}

/** Webview → host: show the module at this position of the folder's ranking. */
export interface MemoryOpenModuleMessage {
  readonly type: 'openModule';
  readonly module: number;
}

export type MemoryToHostMessage =
  MemoryReadyMessage | MemoryRevealMessage | MemoryPeakRevealMessage | MemoryOpenModuleMessage;

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const MAX_TEXT = 1_000_000;
const DECIMAL = /^\d{1,40}$/;

function fail<T>(error: string): Validated<T> {
  return { ok: false, error };
}

function isText(v: unknown): v is string {
  return typeof v === 'string' && v.length <= MAX_TEXT;
}

function isDecimal(v: unknown): boolean {
  return typeof v === 'string' && DECIMAL.test(v);
}

function isIndex(v: unknown): v is number {
  return Number.isSafeInteger(v) && (v as number) >= 0;
}

/** What the page reads of a value: the fields it renders and sorts by. */
function checkValue(v: unknown, where: string): string | undefined {
  if (!isObject(v)) return `${where} must be an object`;
  if (!isText(v.name) || !isText(v.shape)) return `${where} needs a name and a shape`;
  if (!isDecimal(v.paddingBytes)) return `${where}.paddingBytes must be a decimal string`;
  for (const k of ['xlaBytes', 'physicalBytes', 'logicalBytes', 'offset'] as const)
    if (v[k] !== undefined && !isDecimal(v[k])) return `${where}.${k} must be a decimal string`;
  for (const k of ['cause', 'fix', 'disagreement'] as const)
    if (v[k] !== undefined && !isText(v[k])) return `${where}.${k} must be a string`;
  if (v.instruction !== undefined && !isObject(v.instruction))
    return `${where}.instruction must be an object`;
  return undefined;
}

/** The model's fields the page relies on; the rest is rendered as text only. */
function checkModule(m: unknown): string | undefined {
  if (!isObject(m)) return 'module must be an object';
  if (!isText(m.module)) return 'module.module must be a string';
  if (m.basis !== 'buffer-assignment' && m.basis !== 'estimate') return 'module.basis is unknown';
  if (!isObject(m.headline) || !isText(m.headline.memory)) return 'module.headline must say how much memory';
  if (!isDecimal(m.totalBytes) || !isDecimal(m.paddingBytes)) return 'module totals must be decimal strings';
  if (!Array.isArray(m.spaces) || !Array.isArray(m.allocations)) return 'module needs spaces and allocations';
  if (m.peak !== undefined) {
    const p = m.peak as Obj;
    if (!isObject(p) || !isDecimal(p.bytes) || !Array.isArray(p.groups))
      return 'module.peak needs bytes and groups';
    for (const [i, g] of (p.groups as unknown[]).entries())
      if (
        !isObject(g) ||
        !isText(g.label) ||
        !isDecimal(g.bytes) ||
        typeof g.share !== 'number' ||
        !isObject(g.largest)
      )
        return `peak group ${i} needs a label, bytes, a share and its largest value`;
  }
  for (const [i, a] of (m.allocations as unknown[]).entries()) {
    if (!isObject(a)) return `allocation ${i} must be an object`;
    if (!isIndex(a.index) || !isDecimal(a.size) || !isDecimal(a.paddingBytes))
      return `allocation ${i} needs an index, a size and its padding`;
    if (!Array.isArray(a.kinds) || !a.kinds.every(isText)) return `allocation ${i} kinds must be strings`;
    if (!Array.isArray(a.values)) return `allocation ${i} needs values`;
    for (const [j, v] of (a.values as unknown[]).entries()) {
      const bad = checkValue(v, `allocation ${i} value ${j}`);
      if (bad) return bad;
    }
  }
  return undefined;
}

/** Validates a message received by the Memory View page. */
export function validateHostToMemory(value: unknown): Validated<HostToMemoryMessage> {
  if (!isObject(value)) return fail('message must be an object');
  if (value.type === 'error') {
    if (!isText(value.message)) return fail('message must be a string');
    return { ok: true, value: { type: 'error', message: value.message } };
  }
  if (value.type === 'showFolder') {
    if (!isText(value.uri) || !isText(value.name)) return fail('uri and name must be strings');
    if (!Array.isArray(value.modules)) return fail('modules must be a list');
    for (const [i, m] of (value.modules as unknown[]).entries())
      if (
        !isObject(m) ||
        !isText(m.module) ||
        !isText(m.name) ||
        !isDecimal(m.totalBytes) ||
        !isDecimal(m.paddingBytes) ||
        (m.peakBytes !== undefined && !isDecimal(m.peakBytes)) ||
        !isIndex(m.allocations)
      )
        return fail(`folder module ${i} needs a name, its totals as decimal strings and its allocations`);
    return { ok: true, value: value as unknown as ShowFolderMessage };
  }
  if (value.type !== 'show') return fail('unknown message type');
  if (!isText(value.uri)) return fail('uri must be a string');
  if (!isText(value.name)) return fail('name must be a string');
  if (!Array.isArray(value.files) || !value.files.every(isText)) return fail('files must be strings');
  const bad = checkModule(value.module);
  if (bad) return fail(bad);
  return { ok: true, value: value as unknown as ShowMemoryMessage };
}

/** Validates a message received by the extension host from the Memory View page. */
export function validateMemoryToHost(value: unknown): Validated<MemoryToHostMessage> {
  if (!isObject(value)) return fail('message must be an object');
  const extra = Object.keys(value).find(
    (k) => !['type', 'allocation', 'value', 'peakGroup', 'module'].includes(k),
  );
  if (extra !== undefined) return fail(`unexpected field ${extra}`);
  if (value.type === 'openModule') {
    if (!isIndex(value.module) || Object.keys(value).length !== 2)
      return fail('openModule names a module alone');
    return { ok: true, value: { type: 'openModule', module: value.module } };
  }
  if (value.module !== undefined) return fail('unexpected field module');
  if (value.type === 'ready') {
    if (value.allocation !== undefined || value.value !== undefined || value.peakGroup !== undefined)
      return fail('ready takes no fields');
    return { ok: true, value: { type: 'ready' } };
  }
  if (value.type !== 'reveal' && value.type !== 'openSource') return fail('unknown message type');
  if (value.peakGroup !== undefined) {
    if (value.allocation !== undefined || value.value !== undefined)
      return fail('a peak group is named alone');
    if (!isIndex(value.peakGroup)) return fail('peakGroup must be an index');
    return { ok: true, value: { type: value.type, peakGroup: value.peakGroup } };
  }
  if (!isIndex(value.allocation) || !isIndex(value.value))
    return fail('allocation and value must be indices');
  return { ok: true, value: { type: value.type, allocation: value.allocation, value: value.value } };
}
