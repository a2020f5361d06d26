/**
 * XLA's errors on the value of an attribute that names computations (`to_apply=`, `calls=`,
 * `condition=`, `body=`, `branch_computations=`, ...): a name, or for one computation a body
 * written in place (`to_apply={ ROOT ... }`), or for a list `{%a, %b}`. Anything else (`{}`, a
 * number, a keyword, a name in braces) is refused where XLA's parser stops, with its words.
 */
import { diagnostic, type LayoutDiagnostic } from '../diagnostics';
import { typeAt } from '../parse/type-names';
import { attributesOf } from './attribute-table';
import { charAt, readName, skipBalanced, skipTrivia } from './lex';
import { isOpcode } from './opcodes';
import type { HloAttribute } from './types';

/** Words XLA's lexer reads as keywords, never as names (hlo_lexer.cc). */
export const NAME_KEYWORDS: ReadonlySet<string> = new Set([
  'true',
  'false',
  'inf',
  'nan',
  'HloModule',
  'ENTRY',
  'ROOT',
  'maximal',
  'replicated',
  'manual',
  'last_tile_dim_replicate',
  'shard_as',
  'shard_like',
  'unknown',
]);

/** Per opcode, the kind of each attribute that names computations: one (`true`) or a list (`false`). */
const KINDS = new Map<string, ReadonlyMap<string, boolean>>();

function computationKinds(opcode: string): ReadonlyMap<string, boolean> {
  let kinds = KINDS.get(opcode);
  if (!kinds) {
    const m = new Map<string, boolean>();
    for (const a of attributesOf(opcode))
      if (a.value === 'HloComputation' || a.value === 'BracedHloComputationList')
        m.set(a.name, a.value === 'HloComputation');
    KINDS.set(opcode, (kinds = m));
  }
  return kinds;
}

/**
 * The end of the name XLA's lexer reads at `pos` (`%name` or `name`, no keyword or element type
 * without `%`), or -1 when it reads none there.
 */
function nameAt(text: string, pos: number, end: number): number {
  const n = readName(text, pos, end);
  if (!n) return -1;
  if (charAt(text, pos, end) === 37) return n.end;
  return NAME_KEYWORDS.has(n.name.name) || typeAt(text, pos, n.end) !== undefined ? -1 : n.end;
}

/** The text XLA stops at `pos` on, for a message: the word there, or its character. */
function tokenAt(text: string, pos: number, end: number): string {
  let stop = pos;
  while (stop < end && /[\w.%-]/.test(text[stop])) stop++;
  return text.slice(pos, Math.max(stop, Math.min(pos + 1, end)));
}

/**
 * XLA's error on the first value of `attributes` (of an instruction with `opcode`, the statement
 * ending at `end`) that names computations and that XLA cannot read, or undefined.
 */
export function computationValueError(
  text: string,
  opcode: string,
  attributes: readonly HloAttribute[],
  end: number,
): LayoutDiagnostic | undefined {
  if (!isOpcode(opcode)) return undefined;
  const kinds = computationKinds(opcode);
  if (kinds.size === 0) return undefined;
  for (const a of attributes) {
    const one = kinds.get(a.key.name);
    if (one === undefined) continue;
    const d = one
      ? computationError(text, a.key.name, a.valueRange.start, end)
      : listError(text, a.key.name, a.valueRange.start, end);
    if (d) return d;
  }
  return undefined;
}

/** `expects name` at `pos`, with `plain`; at the next statement's first token when `pos` is the statement's end. */
function expectsName(text: string, pos: number, end: number, plain: string): LayoutDiagnostic {
  if (pos >= end)
    return {
      ...diagnostic('invalid-name', 'expects name', { start: end - 1, end }, plain),
      atNextToken: true,
    };
  const stop = pos + tokenAt(text, pos, end).length;
  return diagnostic('invalid-name', 'expects name', { start: pos, end: stop }, plain);
}

/** The error on `key=` given one computation at `vs`: a name, or a body in braces whose first instruction has its `=`. */
function computationError(text: string, key: string, vs: number, end: number): LayoutDiagnostic | undefined {
  const c = charAt(text, vs, end);
  if (c !== 123) {
    if (nameAt(text, vs, end) >= 0) return undefined;
    const what = vs >= end ? 'nothing' : `\`${tokenAt(text, vs, end)}\``;
    return expectsName(
      text,
      vs,
      end,
      `\`${key}=\` takes the name of a computation (\`${key}=%name\`), and ${what} is no name`,
    );
  }
  // A body written in place: its instructions start with `[ROOT] name =`; on later lines (the `{`
  // ends the statement) they are statements of their own.
  let p = skipTrivia(text, vs + 1, end);
  if (p >= end) return undefined;
  const root = readName(text, p, end);
  if (root && root.name.name === 'ROOT' && charAt(text, p, end) !== 37) p = skipTrivia(text, root.end, end);
  const name = nameAt(text, p, end);
  if (name < 0)
    return expectsName(
      text,
      p,
      end,
      charAt(text, p, end) === 125 && !root
        ? `\`${key}={}\` writes a computation in place without instructions: name the computation instead (\`${key}=%name\`), or write its instructions between the braces`
        : `a computation written in place as \`${key}=\` starts with an instruction's name, as in \`${key}={ ROOT %r = f32[] ... }\``,
    );
  const after = skipTrivia(text, name, end);
  if (after < end && charAt(text, after, end) === 61) return undefined;
  const named = text.slice(p, name);
  return diagnostic(
    'expected-token',
    "expects '=' in instruction",
    { start: Math.min(after, end - 1), end: Math.min(after + 1, end) },
    `\`${key}={${named}}\` reads as a computation written in place whose first instruction \`${named}\` has no \`= shape opcode(...)\`: to call the computation ${named}, write \`${key}=${named}\` without braces`,
  );
}

/** The error on `key=` given a list of computations at `vs`: `{` names separated by commas `}`. */
function listError(text: string, key: string, vs: number, end: number): LayoutDiagnostic | undefined {
  if (charAt(text, vs, end) !== 123)
    return {
      ...diagnostic(
        'expected-token',
        'expects a list starting with kLbrace',
        { start: Math.min(vs, end - 1), end: Math.min(vs + 1, end) },
        `\`${key}=\` takes a list of computation names in braces, as in \`${key}={%a, %b}\``,
      ),
      ...(vs >= end ? { atNextToken: true as const } : {}),
    };
  let p = skipTrivia(text, vs + 1, end);
  // An empty list: XLA takes it where it allows no computation (custom-call's called_computations).
  if (charAt(text, p, end) === 125) return undefined;
  for (;;) {
    // Each element is read as one computation's value: a name, or a body written in place.
    if (charAt(text, p, end) === 123) {
      const d = computationError(text, key, p, end);
      if (d) return d;
    }
    const name = charAt(text, p, end) === 123 ? skipBalanced(text, p, end) : nameAt(text, p, end);
    if (name < 0)
      return expectsName(
        text,
        p,
        end,
        `\`${key}=\` lists computation names (\`{%a, %b}\`), and ${p >= end ? 'nothing' : `\`${tokenAt(text, p, end)}\``} is no name`,
      );
    p = skipTrivia(text, name, end);
    const c = charAt(text, p, end);
    if (c === 125) return undefined;
    if (c !== 44)
      return {
        ...diagnostic(
          'expected-token',
          'expects a list to end with kRbrace',
          { start: Math.min(p, end - 1), end: Math.min(p + 1, end) },
          `the names in \`${key}=\` are separated by commas and the list ends with \`}\`, as in \`${key}={%a, %b}\``,
        ),
        ...(p >= end ? { atNextToken: true as const } : {}),
      };
    p = skipTrivia(text, p + 1, end);
  }
}
