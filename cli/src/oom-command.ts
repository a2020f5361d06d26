/**
 * `xla-layout oom FILE|-`: reads XLA's out-of-memory message from a log (or standard input) and
 * gives each listed allocation's layout math: which dimension pads, the layout that would not,
 * and whether the message's sizes agree with the shape as written or under the assumed TPU tiles.
 */
import { toJsonSafe } from '../../core/src';
import {
  OOM_MAX_CHARS,
  checkOomAllocation,
  oomReportLines,
  parseOomMessage,
  xlaBytes,
  type OomAllocationCheck,
} from '../../core/src';
import { parseArgs } from './args';
import { UsageError } from './errors';
import type { Output } from './output';
import { closeText, openText, readPrefix } from './read-statements';

export const OOM_HELP = `Usage: xla-layout oom FILE [--json]      (FILE - reads standard input)

Reads the out-of-memory message XLA's TPU compiler prints ("Ran out of memory in memory space
hbm ... Largest program allocations in hbm: 1. Size: ... Shape: ..."), from a whole log with
anything around it, and gives each listed allocation's layout math: logical and physical size
in the message's notation, whether the message's size agrees, the dimensions that pad and by
how much, and a layout that pads less. Messages often print shapes without T(...) although the
target tiles them: then XLA TPU's conventional tiles are tried and, when they give the message's
size, used and labelled ASSUMED. At most the first ${OOM_MAX_CHARS / 1024 / 1024} MiB are read.

  python train.py 2>&1 | xla-layout oom -

  --json   {"summaries": [...], "allocations": [...]}; lines 1-based, ranges as offsets into
           the text, byte counts decimal strings

Exit status: 0 a message was found, 1 none was, 2 the file could not be read (or bad usage).`;

/** The first OOM_MAX_CHARS bytes of the log: a stream (`-`, a pipe) is not read past them. */
function readInput(file: string): string {
  const input = openText(file, 'a text log');
  try {
    return readPrefix(input, file, OOM_MAX_CHARS);
  } finally {
    closeText(input);
  }
}

function allocationJson(c: OomAllocationCheck): unknown {
  const { allocation: a, array } = c;
  return toJsonSafe({
    ...a,
    line: a.line + 1,
    ...(c.problem !== undefined ? { problem: c.problem } : {}),
    ...(c.assumed ? { assumedTiling: c.assumed } : {}),
    ...(c.logicalBytes !== undefined
      ? { logicalBytes: c.logicalBytes, logicalSize: xlaBytes(c.logicalBytes) }
      : {}),
    ...(c.physicalBytes !== undefined
      ? { physicalBytes: c.physicalBytes, physicalSize: xlaBytes(c.physicalBytes), sizeAgrees: c.sizeAgrees }
      : {}),
    ...(c.unpaddedAgrees !== undefined ? { unpaddedAgrees: c.unpaddedAgrees } : {}),
    ...(array?.padding
      ? {
          padding: array.padding.dimensions
            .filter((d) => d.causes.length > 0)
            .map((d) => ({
              dim: d.dim,
              size: d.size,
              minorMost: d.isMinorMost,
              factor: d.factor.value,
              causes: d.causes.map((k) => ({ tile: k.level, entry: k.tileEntry, from: k.from, to: k.to })),
            })),
        }
      : {}),
    ...(array?.fix
      ? {
          fix: {
            description: array.fix.description,
            physicalBytes: array.fix.physicalBytes,
            savedBytes: array.fix.savedBytes,
          },
        }
      : {}),
  });
}

/** Runs `oom`. */
export function runOom(argv: readonly string[], out: Output): number {
  const args = parseArgs(argv, { flags: ['json', 'help'], values: [] });
  if (args.flags.has('help')) {
    out.write(OOM_HELP);
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError('oom takes one FILE (- for standard input)');
  const message = parseOomMessage(readInput(args.positionals[0] ?? '-'));
  if (args.flags.has('json'))
    out.write(
      JSON.stringify(
        {
          summaries: message.summaries.map((m) => ({ ...m, line: m.line + 1 })),
          allocations: message.allocations.map((a) => allocationJson(checkOomAllocation(a))),
        },
        null,
        2,
      ),
    );
  else out.write(oomReportLines(message).join('\n'));
  return message.summaries.length + message.allocations.length > 0 ? 0 : 1;
}
