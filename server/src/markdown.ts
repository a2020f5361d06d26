/**
 * Markdown building with every piece of document text escaped. Hovers quote names and shapes from
 * the document; a crafted file must not be able to inject HTML, links or command URIs into a hover
 * that VS Code renders with command links enabled. Only text produced by this server is unescaped.
 */

/** Backslash-escapes every ASCII punctuation character (CommonMark allows it for all of them). */
export function escapeText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[\\`*_{}[\]()#+\-.!|<>&~"'=:;,?@$%^/]/g, (c) => `\\${c}`);
}

/**
 * Inline code for document text outside tables. Code spans show their content literally (no HTML,
 * no links); the fence is one backtick longer than the longest run inside, as CommonMark requires.
 */
export function code(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  let longest = 0;
  for (const run of flat.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = flat.startsWith('`') || flat.endsWith('`') || flat.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${flat}${pad}${fence}`;
}

/**
 * A table cell holding document text. GFM splits rows on `|` even inside code spans, so cells use
 * escaped plain text rather than code spans.
 */
export function cell(text: string): string {
  return escapeText(text);
}

// An entity, not U+00A0: markdown renderers trim cells with String.prototype.trim, which strips U+00A0.
const CELL_GAP = '&nbsp;&nbsp;&nbsp;';

/** A GFM table from a header row and body rows (cells must already be escaped or server-made). */
export function table(header: readonly string[], rows: readonly (readonly string[])[], align?: readonly ('l' | 'r')[]): string {
  const sep = header.map((_, i) => (align?.[i] === 'r' ? '--:' : ':--'));
  // VS Code's hover draws table cells with no padding, so neighbouring numbers run together;
  // non-breaking spaces on the side facing the previous column keep them apart.
  const pad = (cell: string, i: number): string => (i === 0 || cell === '' ? cell : `${CELL_GAP}${cell}`);
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(' | ')} |`;
  return [line(header), `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n');
}

/**
 * A `command:` URI with JSON arguments. Every character that could end a Markdown link destination
 * or start markup (parentheses, spaces, brackets, quotes) is percent-encoded.
 */
export function commandUri(command: string, args: unknown): string {
  const encoded = encodeURIComponent(JSON.stringify([args])).replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `command:${command}?${encoded}`;
}

export { groupDigits } from '../../core/src/format';

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB', 'EiB'];

/**
 * A byte count in binary units for quick reading: "96 B", "4.0 KiB", "128 KiB" (one decimal below 10,
 * rounded down so a size never reads larger than it is). Exact values are shown next to it.
 */
export function humanBytes(bytes: bigint): string {
  if (bytes < 1024n) return `${bytes} B`;
  let unit = 0;
  let scaled = bytes;
  // Integer division keeps this exact for values past 2^53; one extra digit gives the decimal.
  while (scaled >= 1024n * 1024n && unit < UNITS.length - 2) {
    scaled /= 1024n;
    unit++;
  }
  const tenths = (scaled * 10n) / 1024n;
  const unitName = UNITS[unit + 1] ?? 'EiB';
  return tenths < 100n ? `${tenths / 10n}.${tenths % 10n} ${unitName}` : `${tenths / 10n} ${unitName}`;
}
