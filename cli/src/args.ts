/**
 * Command-line arguments: options may come before or after positional arguments, `--name value`
 * or `--name=value`, `--` ends options, and a negative number such as `-1` is a positional.
 */
import { UsageError } from './errors';

export interface OptionSpec {
  /** Options without a value, e.g. `json`, `help`. */
  readonly flags: readonly string[];
  /** Options that take a value, e.g. `top`, `max-cells`. */
  readonly values: readonly string[];
}

export interface ParsedArgs {
  readonly positionals: string[];
  readonly flags: Set<string>;
  readonly values: Map<string, string>;
}

const SHORT: Readonly<Record<string, string>> = { h: 'help' };

/** Splits `argv` by `spec`; unknown options are usage errors. */
export function parseArgs(argv: readonly string[], spec: OptionSpec): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Set<string>();
  const values = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    const long = arg.startsWith('--');
    if (!long && !(arg.startsWith('-') && arg.length > 1 && !/^-\d/.test(arg))) {
      positionals.push(arg);
      continue;
    }
    const body = long ? arg.slice(2) : (SHORT[arg.slice(1)] ?? arg.slice(1));
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    if (spec.flags.includes(name)) {
      if (eq >= 0) throw new UsageError(`option --${name} takes no value`);
      flags.add(name);
    } else if (spec.values.includes(name)) {
      const value = eq >= 0 ? body.slice(eq + 1) : argv[++i];
      if (value === undefined) throw new UsageError(`option --${name} needs a value`);
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option ${arg}`);
    }
  }
  return { positionals, flags, values };
}

/** A non-negative integer option, or `fallback` when absent. */
export function intOption(args: ParsedArgs, name: string, fallback: number): number {
  const raw = args.values.get(name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(Number(raw)))
    throw new UsageError(`--${name} expects a non-negative integer, got '${raw}'`);
  return Number(raw);
}
