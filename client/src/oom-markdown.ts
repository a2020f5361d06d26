/** The out-of-memory account (core's oom-text.ts) as markdown, for VS Code's preview. */
import { code, escapeText } from '../../protocol/src/markdown';

/**
 * Where the account may link: `log`, the log's `file:` URI (its "line N" become links to those
 * lines), and `sources`, by allocation number, the `file:` URI of the program line its operator
 * names, already let through the source policy (client/src/source-policy.ts).
 */
export interface OomLinks {
  readonly log?: string;
  readonly sources?: ReadonlyMap<number, string>;
}

/** A link to `uri` (a `file:` URI, else plain text: metadata must not make other links). */
function link(text: string, uri: string | undefined): string {
  return uri !== undefined && /^file:[^\s<>()]*$/.test(uri) ? `[${text}](<${uri}>)` : text;
}

/** `text` escaped, with every "line N" in it a link to that line of the log. */
function withLogLines(text: string, log: string | undefined): string {
  return text
    .split(/(line \d+)/)
    .map((part, i) => {
      const n = i % 2 === 1 ? /\d+/.exec(part)?.[0] : undefined;
      return n !== undefined && log !== undefined ? link(escapeText(part), `${log}#L${n}`) : escapeText(part);
    })
    .join('');
}

/**
 * The account as markdown: the answer (the first line) right under the title; each allocation a
 * heading ("1. 16.00G in hbm, line 19") with its shape in code, its details a list; the log's
 * lines and the program's source lines links where `links` gives them.
 */
export function oomMarkdown(lines: readonly string[], source: string, links: OomLinks = {}): string {
  const out = [`# Out-of-memory message in ${escapeText(source)}`, ''];
  let rank: number | undefined;
  for (const line of lines) {
    const allocation = /^(\d+)(\. [^:]*)(?:: (.*))?$/.exec(line);
    if (allocation && !line.startsWith(' ')) {
      rank = Number(allocation[1]);
      out.push(`## ${escapeText(allocation[1] ?? '')}${withLogLines(allocation[2] ?? '', links.log)}`, '');
      if (allocation[3]) out.push(code(allocation[3]), '');
    } else if (line.startsWith('   source: ')) {
      const text = escapeText(line.trim());
      out.push(`- ${link(text, rank !== undefined ? links.sources?.get(rank) : undefined)}`);
    } else if (line.startsWith('   ')) out.push(`- ${escapeText(line.trim())}`);
    else if (line === '') out.push('');
    else out.push(withLogLines(line, links.log), '');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
