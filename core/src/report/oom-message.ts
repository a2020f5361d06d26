/**
 * XLA TPU's out-of-memory message ("Ran out of memory in memory space hbm ... Largest program
 * allocations in hbm: 1. Size: 8.00G / Shape: f32[256,512,128,2]{3,2,1,0} / Unpadded size: 128.00M /
 * Extra memory due to padding: 7.88G (64.0x expansion) ..."), read from any text around it (log
 * prefixes such as timestamps are skipped), and each listed allocation's shape recomputed: users
 * meet padding first in these messages (users.md item 1) and want to know which dimension pads.
 */
import type { TextRange } from '../diagnostics';

/** A size as the message prints it ("8.00G", "24.0K", "512B"), with its place in the text. */
export interface PrintedSize {
  readonly text: string;
  readonly range: TextRange;
}

/** "Ran out of memory in memory space hbm. Used 27.90G of 16.00G hbm. Exceeded hbm capacity by 11.90G." */
export interface OomSummary {
  readonly memorySpace: string;
  readonly used: PrintedSize;
  readonly capacity: PrintedSize;
  readonly exceededBy: PrintedSize;
  /** 0-based line in the log. */
  readonly line: number;
}

/** One entry of "Largest program allocations in <space>:". */
export interface OomAllocation {
  /** The entry's number in the list (1 for "1. Size: ..."). */
  readonly rank: number;
  readonly memorySpace: string | undefined;
  /** 0-based line of "N. Size:" in the log. */
  readonly line: number;
  readonly size: PrintedSize;
  /** The shape's text and range (absent for allocations without one, such as spill slots). */
  readonly shape?: PrintedSize;
  readonly unpaddedSize?: PrintedSize;
  readonly paddingSize?: PrintedSize;
  /** The printed expansion factor, "64.0" of "(64.0x expansion)". */
  readonly expansion?: string;
  readonly operator?: string;
  /** The program line the operator's `source_file` and `source_line` name (line 1-based). */
  readonly source?: { readonly file: string; readonly line?: number };
  readonly label?: string;
  readonly allocationType?: string;
}

export interface OomMessage {
  readonly summaries: readonly OomSummary[];
  readonly allocations: readonly OomAllocation[];
}

const SUMMARY =
  /Ran out of memory in memory space (\S+)\. Used (\S+) of (\S+) \S+\. Exceeded \S+ capacity by (\S+?)\.?(?:\s|$)/;
const LIST = /Largest program allocations in (\S+?):/;
const ENTRY = /(?:^|\s)(\d+)\. Size: (\S+)/;
const FIELD =
  /(?:^|\s)(Operator|Shape|Unpadded size|Extra memory due to padding|XLA label|Allocation type): /;
const PADDING = /^(\S+) \(([\d.]+)x expansion\)/;
const SEPARATOR = /={10,}/;
const SOURCE_FILE = /(?:^|\s)source_file="([^"]*)"/;
const SOURCE_LINE = /(?:^|\s)source_line=(\d+)/;

/** Most characters of a text read for the message: logs are small; a huge file is cut, not a hang. */
export const OOM_MAX_CHARS = 256 * 1024 * 1024;

/**
 * The out-of-memory summaries and listed allocations in `text` (empty lists when it holds none).
 * Lines are counted from `firstLine`, the 0-based line of `text[0]` in the log it was cut from (a
 * selection), so that they name the log's own lines.
 */
export function parseOomMessage(text: string, firstLine = 0): OomMessage {
  const summaries: OomSummary[] = [];
  const allocations: OomAllocation[] = [];
  let space: string | undefined;
  let open: { -readonly [K in keyof OomAllocation]: OomAllocation[K] } | undefined;
  const close = () => {
    if (open) allocations.push(open);
    open = undefined;
  };
  const end = Math.min(text.length, OOM_MAX_CHARS);
  for (let next = 0, line = firstLine; next < end; line++) {
    const start = next;
    const newline = text.indexOf('\n', start);
    const lineEnd = newline < 0 || newline > end ? end : newline;
    next = lineEnd + 1;
    const content = text.slice(start, lineEnd).replace(/\r$/, '');
    /** `value`, found at or after column `from` of the line. */
    const size = (value: string, from: number): PrintedSize => {
      const at = start + content.indexOf(value, from);
      return { text: value, range: { start: at, end: at + value.length } };
    };
    const summary = SUMMARY.exec(content);
    if (summary) {
      close();
      const used = size(summary[2], summary.index);
      const capacity = size(summary[3], used.range.end - start);
      summaries.push({
        memorySpace: summary[1],
        used,
        capacity,
        exceededBy: size(summary[4], capacity.range.end - start),
        line,
      });
      continue;
    }
    const list = LIST.exec(content);
    if (list) {
      close();
      space = list[1];
      continue;
    }
    const entry = ENTRY.exec(content);
    if (entry) {
      close();
      open = {
        rank: Number(entry[1]),
        memorySpace: space,
        line,
        size: size(entry[2], entry.index + entry[0].length - entry[2].length),
      };
      continue;
    }
    if (!open) continue;
    if (SEPARATOR.test(content)) {
      close();
      continue;
    }
    const field = FIELD.exec(content);
    if (!field) continue;
    const valueAt = field.index + field[0].length;
    const value = content.slice(valueAt).trimEnd();
    switch (field[1]) {
      case 'Shape':
        open.shape = size(value, valueAt);
        break;
      case 'Unpadded size':
        open.unpaddedSize = size(value.split(/\s/)[0] ?? value, valueAt);
        break;
      case 'Extra memory due to padding': {
        const p = PADDING.exec(value);
        if (p) {
          open.paddingSize = size(p[1], valueAt);
          open.expansion = p[2];
        }
        break;
      }
      case 'Operator': {
        open.operator = value;
        const file = SOURCE_FILE.exec(value);
        if (file?.[1]) {
          const line = SOURCE_LINE.exec(value);
          open.source = { file: file[1], ...(line ? { line: Number(line[1]) } : {}) };
        }
        break;
      }
      case 'XLA label':
        open.label = value;
        break;
      case 'Allocation type':
        open.allocationType = value;
        break;
    }
  }
  close();
  return { summaries, allocations };
}

/** 1024^k as bigint. */
const KIB = 1024n;

/** Rounds n / d to `decimals` places, ties to even (as glibc's printf rounds an exact binary value). */
function fixed(n: bigint, d: bigint, decimals: number): string {
  const scale = 10n ** BigInt(decimals);
  const scaled = n * scale;
  let q = scaled / d;
  const r = scaled % d;
  if (2n * r > d || (2n * r === d && q % 2n === 1n)) q += 1n;
  const whole = q / scale;
  const frac = (q % scale).toString().padStart(decimals, '0');
  return `${whole}.${frac}`;
}

/**
 * A byte count as XLA prints it in these messages (tsl's HumanReadableNumBytes without the "iB"
 * newer versions append): whole bytes below 1 KiB ("512B"), one decimal in K ("24.0K"), two from
 * M on ("8.00G"). The count is divided by 1024 in whole steps first, as XLA does.
 */
export function xlaBytes(bytes: bigint): string {
  if (bytes < 0n) return `-${xlaBytes(-bytes)}`;
  if (bytes < KIB) return `${bytes}B`;
  const units = 'KMGTPE';
  let unit = 0;
  let n = bytes;
  while (n >= KIB * KIB && unit < units.length - 1) {
    n /= KIB;
    unit++;
  }
  return `${fixed(n, KIB, unit === 0 ? 1 : 2)}${units[unit]}`;
}

/**
 * The bytes a printed size ("22.39G", "24.0K", "512B", "8.00GiB") stands for, to the precision it
 * was printed with; undefined for text that is no such size.
 */
export function printedBytes(text: string): bigint | undefined {
  const m = /^(\d+)(?:\.(\d+))?([KMGTPE]?)(?:i?B)?$/.exec(normalPrintedSize(text));
  if (!m) return undefined;
  const decimals = m[2] ?? '';
  const scale = 10n ** BigInt(decimals.length);
  const unit = KIB ** BigInt(m[3] ? 'KMGTPE'.indexOf(m[3]) + 1 : 0);
  return (BigInt(`${m[1]}${decimals}`) * unit) / scale;
}

/** A printed size without the "iB" of newer XLA versions, so that "8.00GiB" and "8.00G" compare equal. */
export function normalPrintedSize(text: string): string {
  return text.replace(/iB$/, '');
}
