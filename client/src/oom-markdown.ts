/** The out-of-memory account (core's oom-text.ts) as markdown, for VS Code's preview. */
import { code, escapeText } from '../../protocol/src/markdown';

/**
 * The account as markdown: the answer (the first line) right under the title; each allocation a
 * heading ("1. 16.00G in hbm, line 19") with its shape in code, its details a list.
 */
export function oomMarkdown(lines: readonly string[], source: string): string {
  const out = [`# Out-of-memory message in ${escapeText(source)}`, ''];
  for (const line of lines) {
    const allocation = /^(\d+\. [^:]*)(?:: (.*))?$/.exec(line);
    if (allocation && !line.startsWith(' ')) {
      out.push(`## ${escapeText(allocation[1] ?? '')}`, '');
      if (allocation[2]) out.push(code(allocation[2]), '');
    } else if (line.startsWith('   ')) out.push(`- ${escapeText(line.trim())}`);
    else if (line === '') out.push('');
    else out.push(escapeText(line), '');
  }
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}
