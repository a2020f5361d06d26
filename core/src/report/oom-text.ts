/**
 * The plain-text account of an out-of-memory message that `xla-layout oom` prints and the editor
 * shows beside the log: for each listed allocation, what pads it and what layout would not, with
 * every size in the message's own notation so the two read side by side.
 */
import { formatFactor, formatPercent, groupDigits } from '../format';
import { ratio } from '../layout/bigint-math';
import { checkOomAllocation, type OomAllocationCheck } from './oom-check';
import { printedBytes, xlaBytes, type OomMessage, type OomSummary } from './oom-message';

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
        `pads: dim ${d.dim}, size ${groupDigits(d.size)}${d.isMinorMost ? ', minor-most' : ''}: T${tiles} pads ${causes} (${formatFactor(d.factor.value)})`,
      );
    }
    const fix = c.array.fix;
    if (fix)
      more(`fix: ${fix.description} -> ${xlaBytes(fix.physicalBytes)}, saves ${xlaBytes(fix.savedBytes)}`);
  }
  if (a.source)
    more(`source: ${cut(a.source.file)}${a.source.line !== undefined ? ` line ${a.source.line}` : ''}`);
  if (a.operator) more(`operator: ${cut(a.operator)}`);
  if (a.label) more(`XLA label: ${cut(a.label)}`);
  return lines;
}

/**
 * The answer, for the first line: how much of the listed memory is padding, what the suggested
 * layouts save and, with the summary of the same memory space, whether the program would then fit.
 */
function verdictLine(summary: OomSummary | undefined, checks: readonly OomAllocationCheck[]): string {
  let physical = 0n;
  let logical = 0n;
  let saved = 0n;
  let fixes = 0;
  for (const c of checks) {
    if (c.physicalBytes === undefined || c.logicalBytes === undefined) continue;
    if (summary && c.allocation.memorySpace !== undefined && c.allocation.memorySpace !== summary.memorySpace)
      continue;
    physical += c.physicalBytes;
    logical += c.logicalBytes;
    const s = c.array?.fix?.savedBytes ?? 0n;
    if (s > 0n) fixes++;
    saved += s;
  }
  const padding = physical - logical;
  const share = ratio(padding, physical)?.value;
  const head =
    padding > 0n
      ? `${share !== undefined ? formatPercent(share) : 'Part'} of the ${xlaBytes(physical)} in the listed allocations is padding (${xlaBytes(padding)})`
      : `The listed allocations (${xlaBytes(physical)}) have no padding`;
  if (saved === 0n) return `${head}; no layout change below saves memory.`;
  const verb = fixes === 1 ? 's' : '';
  const changes = `${fixes === 1 ? 'the layout change' : `the ${fixes} layout changes`} below save${verb} ${xlaBytes(saved)}`;
  const used = summary && printedBytes(summary.used.text);
  const capacity = summary && printedBytes(summary.capacity.text);
  if (!summary || used === undefined || capacity === undefined) return `${head}; ${changes}.`;
  const need = used > saved ? used - saved : 0n;
  const outcome =
    need <= capacity
      ? `under the ${summary.capacity.text} capacity, so it would fit`
      : `still ${xlaBytes(need - capacity)} over the ${summary.capacity.text} capacity`;
  return `${head}; ${changes} and bring${verb} ${summary.memorySpace} use from ${summary.used.text} to about ${xlaBytes(need)}, ${outcome}.`;
}

/** The account of `message` (parsed already) as lines of text; a note when the text holds no such message. */
export function oomReportLines(message: OomMessage): string[] {
  const checks = message.allocations.map(checkOomAllocation);
  const lines: string[] = [];
  if (checks.some((c) => c.physicalBytes !== undefined))
    lines.push(verdictLine(message.summaries[0], checks));
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
  for (const c of checks) {
    if (lines.length > 0) lines.push('');
    lines.push(...allocationLines(c));
  }
  return lines;
}
