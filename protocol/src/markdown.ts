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

/**
 * Most characters one hover or rendered preview holds. VS Code draws a hover of megabytes slowly
 * and the answer itself costs memory twice (server and client): a 500,000-dimension shape made
 * 16 MB of markdown. Builders keep their lists short; this bounds what is left.
 */
export const MAX_MARKDOWN_CHARS = 64 * 1024;

/**
 * Markdown blocks joined by blank lines. Past `max` characters the blocks that fit are kept whole,
 * then the lines of the next one that fit (table rows and list items stay intact), then a last
 * line says how long the whole answer was.
 */
export function joinBlocks(blocks: readonly string[], max = MAX_MARKDOWN_CHARS): string {
  let total = 0;
  for (const b of blocks) total += b.length + 2;
  if (total - 2 <= max) return blocks.join('\n\n');
  const note = `*Cut here: the whole answer is ${total.toLocaleString('en-US')} characters, and one holds at most ${max.toLocaleString('en-US')}.*`;
  const budget = max - note.length - 2;
  const kept: string[] = [];
  let used = 0;
  for (const block of blocks) {
    if (used + block.length + 2 <= budget) {
      kept.push(block);
      used += block.length + 2;
      continue;
    }
    const lines: string[] = [];
    for (const line of block.split('\n')) {
      if (used + line.length + 1 > budget) break;
      lines.push(line);
      used += line.length + 1;
    }
    if (lines.length > 0) kept.push(lines.join('\n'));
    break;
  }
  kept.push(note);
  return kept.join('\n\n');
}
