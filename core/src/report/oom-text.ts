/**
 * The plain-text account of an out-of-memory message that `xla-layout oom` prints and the editor
 * shows beside the log: for each listed allocation, what pads it and what layout would not, with
 * every size in the message's own notation so the two read side by side.
 */
import { formatFactor, formatPercent, groupDigits } from '../format';
import { ratio } from '../layout/bigint-math';
import { checkOomAllocation, type OomAllocationCheck } from './oom-check';
import { xlaBytes, type OomMessage } from './oom-message';

/** Longest operator or label text shown; op_name strings can run to thousands of characters. */
const MAX_DETAIL_CHARS = 160;

function cut(text: string): string {
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS - 1)}…`;
}

function factor(physical: bigint, logical: bigint): string {
  const r = ratio(physical, logical);
  return r ? ` (${formatFactor(r.value)})` : '';
}

function allocationLines(c: OomAllocationCheck): string[] {
  const a = c.allocation;
  const where = `${a.rank}. ${a.size.text}${a.memorySpace ? ` in ${a.memorySpace}` : ''}, line ${a.line + 1}`;
  const lines = [`${where}${a.shape ? `: ${a.shape.text}` : ''}`];
  const more = (s: string) => lines.push(`   ${s}`);
  if (c.problem !== undefined || c.logicalBytes === undefined || c.physicalBytes === undefined || !c.array) {
    more(`no layout math: ${c.problem ?? 'no sizes'}`);
  } else {
    const sizes = `logical ${xlaBytes(c.logicalBytes)} -> physical ${xlaBytes(c.physicalBytes)}${factor(c.physicalBytes, c.logicalBytes)}`;
    const basis = c.assumed ? `, under the ASSUMED tiling ${c.assumed} (the message prints no tiles)` : '';
    const verdict = c.sizeAgrees
      ? `the message's ${a.size.text} agrees${basis}`
      : `the message says ${a.size.text}, not ${xlaBytes(c.physicalBytes)}${basis}: the target laid it out otherwise than written`;
    more(`${sizes}; ${verdict}`);
    if (a.unpaddedSize && c.unpaddedAgrees === false)
      more(`the message's unpadded size is ${a.unpaddedSize.text}, not ${xlaBytes(c.logicalBytes)}`);
    const tiles = c.array.tiles.join('');
    for (const d of c.array.padding?.dimensions ?? []) {
      if (d.causes.length === 0) continue;
      const causes = d.causes.map((k) => `${groupDigits(k.from)} to ${groupDigits(k.to)}`).join(', then ');
      more(
        `pads: dim ${d.dim}${d.letter ? ` (${d.letter})` : ''}, size ${groupDigits(d.size)}${d.isMinorMost ? ', minor-most' : ''}: T${tiles} pads ${causes} (${formatFactor(d.factor.value)})`,
      );
    }
    const fix = c.array.fix;
    if (fix)
      more(`fix: ${fix.description} -> ${xlaBytes(fix.physicalBytes)}, saves ${xlaBytes(fix.savedBytes)}`);
  }
  if (a.operator) more(`operator: ${cut(a.operator)}`);
  if (a.label) more(`XLA label: ${cut(a.label)}`);
  return lines;
}

/** The closing line: what the listed allocations add up to, and what the suggested layouts would save. */
function totalsLine(checks: readonly OomAllocationCheck[]): string {
  let physical = 0n;
  let logical = 0n;
  let saved = 0n;
  let counted = 0;
  for (const c of checks) {
    if (c.physicalBytes === undefined || c.logicalBytes === undefined) continue;
    counted++;
    physical += c.physicalBytes;
    logical += c.logicalBytes;
    saved += c.array?.fix?.savedBytes ?? 0n;
  }
  const padding = physical - logical;
  const r = ratio(padding, physical);
  const share = r ? `, ${formatPercent(r.value)}` : '';
  const fixes = saved > 0n ? `; the suggested layouts would save ${xlaBytes(saved)}` : '';
  return `${checks.length} allocation${checks.length === 1 ? '' : 's'} listed, ${counted} with layout math: ${xlaBytes(physical)} physical, ${xlaBytes(padding)} of it padding${share}${fixes}.`;
}

/** The account of `message` (parsed already) as lines of text; a note when the text holds no such message. */
export function oomReportLines(message: OomMessage): string[] {
  const lines: string[] = [];
  for (const s of message.summaries) {
    lines.push(
      `Out of memory in ${s.memorySpace}: ${s.used.text} used of ${s.capacity.text}, ${s.exceededBy.text} over (line ${s.line + 1}).`,
    );
  }
  if (message.allocations.length === 0) {
    lines.push(
      message.summaries.length > 0
        ? 'The message lists no allocations ("Largest program allocations in ...").'
        : 'No XLA out-of-memory message ("Ran out of memory in memory space ...", "Largest program allocations in ...") found.',
    );
    return lines;
  }
  const checks = message.allocations.map(checkOomAllocation);
  for (const c of checks) {
    if (lines.length > 0) lines.push('');
    lines.push(...allocationLines(c));
  }
  lines.push('', totalsLine(checks));
  return lines;
}
