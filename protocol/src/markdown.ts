/**
 * Markdown building with every piece of document text escaped, for the server's hovers and the
 * client's rendered previews alike. They quote names and shapes from documents and logs; a crafted
 * file must not be able to inject HTML, links or command URIs into markdown that VS Code renders
 * (hovers with command links enabled). Only text produced by the extension is unescaped.
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
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly ('l' | 'r')[],
): string {
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
  const encoded = encodeURIComponent(JSON.stringify([args])).replace(
    /[!'()*~]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `command:${command}?${encoded}`;
}
