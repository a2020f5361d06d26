/** The out-of-memory account (core's oom-text.ts) as markdown, for VS Code's preview. */

/** Markdown-escapes text that holds shapes (`*` of combined dimensions, `{...}`, `_` in names). */
function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]<>#|~]/g, (c) => `\\${c}`);
}

/**
 * The account as markdown: each allocation a heading ("1. 16.00G in hbm, line 19") with its shape
 * in code, its details a list; the first and last lines (summary, totals) paragraphs.
 */
export function oomMarkdown(lines: readonly string[], source: string): string {
  const out = [`# Out-of-memory message`, '', `From ${escape(source)}.`, ''];
  for (const line of lines) {
    const allocation = /^(\d+\. [^:]*)(?:: (.*))?$/.exec(line);
    if (allocation && !line.startsWith(' ')) {
      out.push(`## ${escape(allocation[1] ?? '')}`, '');
      if (allocation[2]) out.push(`\`${allocation[2]}\``, '');
    } else if (line.startsWith('   ')) out.push(`- ${escape(line.trim())}`);
    else if (line === '') out.push('');
    else out.push(escape(line), '');
  }
  return `${out.join('\n').replace(/\n{3,}/g, '\n\n').trimEnd()}\n`;
}
