import { CheckStream } from '../../core/src/report/check-stream';

/** The errors `xla-layout check` reports on `text`, as `code line:column message`. */
export function checkErrors(text: string): string[] {
  const out: string[] = [];
  const stream = new CheckStream((d) => {
    if (d.diagnostic.severity === 'error')
      out.push(`${d.diagnostic.code} ${d.start.line}:${d.start.column} ${d.diagnostic.message}`);
  });
  stream.write(text);
  stream.end();
  return out;
}
