/**
 * `xla-layout`: XLA array layouts from the command line. Each subcommand lives in its own file;
 * this one dispatches and turns every expected failure into one message and exit code 2 (bad
 * usage, bad shape or argument with a caret, unreadable file), never a stack trace.
 */
import { isMainThread, workerData } from 'worker_threads';
import { runCheck, CHECK_HELP } from './check-command';
import { serveSegments, WORKER_ROLE } from './check-worker';
import { runElement, ELEMENT_HELP } from './element-command';
import { caretLines, FileError, InputError, UsageError } from './errors';
import { runExplain, EXPLAIN_HELP } from './explain-command';
import { runIndex, INDEX_HELP } from './index-command';
import { runMap, MAP_HELP } from './map-command';
import { runMemory, MEMORY_HELP } from './memory-command';
import { runOom, OOM_HELP } from './oom-command';
import { processOutput, type Output } from './output';
import { runReport, REPORT_HELP } from './report-command';

const COMMANDS: Readonly<
  Record<
    string,
    { run: (argv: readonly string[], out: Output) => number | Promise<number>; help: string; summary: string }
  >
> = {
  explain: {
    run: runExplain,
    help: EXPLAIN_HELP,
    summary: 'explain one shape: order, tiles, steps, sizes, padding',
  },
  index: { run: runIndex, help: INDEX_HELP, summary: 'linear index (slot) of a logical element' },
  element: { run: runElement, help: ELEMENT_HELP, summary: 'the element or padding at a slot offset' },
  map: { run: runMap, help: MAP_HELP, summary: 'memory map of a 2-D slice as a table' },
  check: { run: runCheck, help: CHECK_HELP, summary: 'check every shape in HLO files, compiler-style' },
  report: { run: runReport, help: REPORT_HELP, summary: 'buffers by padding: logical vs physical bytes' },
  oom: { run: runOom, help: OOM_HELP, summary: "explain a TPU out-of-memory message's allocations" },
  memory: {
    run: runMemory,
    help: MEMORY_HELP,
    summary: "what a dump allocates, from XLA's buffer assignment",
  },
};

const USAGE = `Usage: xla-layout <command> [options] [arguments]   (options may come anywhere)

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(9)}${c.summary}`)
  .join('\n')}

Run 'xla-layout <command> --help' for details. Every command takes --json.
Quote shapes for the shell: xla-layout explain 'bf16[8,256]{1,0:T(8,128)(2,1)S(1)}'`;

/** Runs the CLI on `argv` (without `node` and the script) and returns the exit code. */
async function main(argv: readonly string[], out: Output): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? rest[0] : undefined;
    out.write(topic && COMMANDS[topic] ? COMMANDS[topic].help : USAGE);
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command '${name}'`);
    return await command.run(rest, out);
  } catch (e) {
    if (e instanceof InputError) {
      out.error(`xla-layout ${name}: error: ${e.message}\n${caretLines(e.input, e.start, e.end)}`);
      return 2;
    }
    if (e instanceof UsageError) {
      out.error(
        `xla-layout${command ? ` ${name}` : ''}: ${e.message}\n${command ? `Run 'xla-layout ${name} --help' for usage.` : USAGE}`,
      );
      return 2;
    }
    if (e instanceof FileError) {
      out.error(`xla-layout ${name}: ${e.message}`);
      return 2;
    }
    // Anything else is a bug in this tool: say so in one line rather than dumping a trace.
    out.error(`xla-layout ${name}: internal error: ${e instanceof Error ? e.message : String(e)}`);
    return 3;
  }
}

if (!isMainThread && (workerData as { role?: string } | null)?.role === WORKER_ROLE) {
  // This bundle started as a worker of `check --jobs`.
  serveSegments();
} else {
  const out = processOutput();
  void main(process.argv.slice(2), out).then((code) => {
    out.flush();
    process.exitCode = code;
  });
}
