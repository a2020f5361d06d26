/**
 * The source tables after a module's `HloModule` line read as XLA's parser reads them
 * (`ParseStackFrameIndex` in hlo_parser.cc): none at all, or all four in the order FileNames,
 * FunctionNames, FileLocations, StackFrames, before the first computation, every FileLocations and
 * StackFrames entry with each of its fields once. Trimming a dump (deleting the FileNames table,
 * moving the tables below the computations) breaks that; XLA then stops with "expects name" or
 * "expects 'FunctionNames'". A text ending inside the tables is structure-checks.ts's.
 */
import { diagnostic, type LayoutDiagnostic, type TextRange } from '../diagnostics';
import { integerOutOfRange } from './literal-range';
import { literalToken } from './literal-tokens';
import { readName, skipString, skipTrivia } from './lex';
import { SOURCE_TABLES } from './stack-frames';

const TABLES: ReadonlySet<string> = new Set(SOURCE_TABLES);

/** The fields of an entry of each table read as `id {key=value ...}`, all required. */
const FIELDS: Readonly<Record<string, readonly string[]>> = {
  FileLocations: ['file_name_id', 'function_name_id', 'line', 'end_line', 'column', 'end_column'],
  StackFrames: ['file_location_id', 'parent_frame_id'],
};

const ORDER_WORDS =
  'XLA reads the source tables only all four, in the order FileNames, FunctionNames, FileLocations, StackFrames, between the HloModule line and the first computation';

/** The reading stops without an error of its own: the text ends, or another check reports what comes. */
const STOP = 'stop';
/** What one step of the reading finds: an error, STOP, or nothing (go on). */
type Step = LayoutDiagnostic | typeof STOP | undefined;

/** A statement as the check needs it: its kind and where it is. */
export interface TableStatement {
  readonly kind: string;
  readonly range: TextRange;
}

/** Reads the tables from the end of a module header on; see {@link sourceTableErrors}. */
class TableReader {
  private p: number;

  constructor(
    private readonly text: string,
    start: number,
  ) {
    this.p = skipTrivia(text, start, text.length);
  }

  private word(): { name: string; range: TextRange } | undefined {
    const w = readName(this.text, this.p, this.text.length);
    return w && this.text.charCodeAt(this.p) !== 37 ? { name: w.name.name, range: w.name.range } : undefined;
  }

  /** Whether an integer (an entry's id) stands next; if so, reads it. */
  private id(): boolean {
    const t = literalToken(this.text, this.p, this.text.length);
    if (t.kind !== 'int') return false;
    this.p = skipTrivia(this.text, t.end, this.text.length);
    return true;
  }

  private at(start: number): TextRange {
    return { start, end: Math.min(this.text.length, start + 1) };
  }

  /**
   * The first error, or undefined: none found, or one another check reports (a character no
   * statement starts with, a key without its `=`), or the text ending first.
   */
  read(): LayoutDiagnostic | undefined {
    const first = this.word();
    if (!first || first.name !== 'FileNames') {
      if (first && TABLES.has(first.name))
        return diagnostic(
          'source-tables',
          'expects name',
          first.range,
          `the FileNames table is missing before ${first.name}: ${ORDER_WORDS}, so it reads ${first.name} as a computation's name`,
        );
      return undefined;
    }
    this.p = skipTrivia(this.text, first.range.end, this.text.length);
    const steps = [
      () => this.entries('FileNames'),
      () => this.expect('FunctionNames'),
      () => this.entries('FunctionNames'),
      () => this.expect('FileLocations'),
      () => this.fieldEntries('FileLocations'),
      () => this.expect('StackFrames'),
      () => this.fieldEntries('StackFrames'),
    ];
    for (const step of steps) {
      const r = step();
      if (r === STOP) return undefined;
      if (r) return r;
    }
    // The computations come next: a table name there is no computation's name.
    const after = this.word();
    return after && TABLES.has(after.name)
      ? diagnostic(
          'source-tables',
          'expects name',
          after.range,
          `a second ${after.name} table after StackFrames: ${ORDER_WORDS}, each once`,
        )
      : undefined;
  }

  /** Reads the name of `table`, or gives XLA's error where it is not (STOP: the text ends, or another check's error comes first). */
  private expect(table: string): Step {
    if (this.p >= this.text.length) return STOP;
    const w = this.word();
    if (w?.name === table) {
      this.p = skipTrivia(this.text, w.range.end, this.text.length);
      return undefined;
    }
    const c = this.text.charCodeAt(this.p);
    // A character no statement starts with is another check's to report.
    if (!w && c !== 37 && c !== 45 && !(c >= 48 && c <= 57) && c !== 123 && c !== 34) return STOP;
    const seen = w && TABLES.has(w.name) ? `${w.name} comes` : 'the tables end';
    return diagnostic(
      'source-tables',
      `expects '${table}'`,
      w?.range ?? this.at(this.p),
      `${seen} where XLA expects the ${table} table: ${ORDER_WORDS}`,
    );
  }

  /** The entries `id "name"` of FileNames or FunctionNames (`table`): the first without its string. */
  private entries(table: string): Step {
    const { text } = this;
    while (this.id()) {
      const c = text.charCodeAt(this.p);
      if (c === 34 || c === 39) {
        this.p = skipTrivia(text, skipString(text, this.p, text.length), text.length);
        continue;
      }
      // XLA records the error and reads on; another id next reads as the next entry.
      if (literalToken(text, this.p, text.length).kind === 'int' || this.p >= text.length) continue;
      return diagnostic(
        'source-tables',
        'expects string',
        this.at(this.p),
        `an entry of ${table} is an id and a quoted name: \`1 "name"\``,
      );
    }
    return undefined;
  }

  /** The entries `id {key=value ...}` of FileLocations or StackFrames (`table`): the first wrong one's error. */
  private fieldEntries(table: string): Step {
    const { text } = this;
    const fields = FIELDS[table];
    while (this.id()) {
      const open = this.p;
      if (text.charCodeAt(open) !== 123)
        return diagnostic(
          'source-tables',
          "expects '{' to start sub attributes",
          this.at(open),
          `an entry of ${table} is an id and its fields in braces: \`1 {${fields.map((f) => `${f}=1`).join(' ')}}\``,
        );
      const seen = new Set<string>();
      this.p = skipTrivia(text, open + 1, text.length);
      while (text.charCodeAt(this.p) !== 125) {
        if (text.charCodeAt(this.p) === 44) this.p = skipTrivia(text, this.p + 1, text.length);
        const key = readName(text, this.p, text.length);
        // A key without its `=` is leftover.ts's (tableEntryErrors) to report.
        if (!key || text.charCodeAt(this.p) === 37 || text.charCodeAt(key.end) !== 61) return STOP;
        const name = key.name.name;
        if (seen.has(name))
          return diagnostic(
            'source-tables',
            `attribute ${name} already exists`,
            key.name.range,
            `${name} is given twice in this ${table} entry`,
          );
        if (!fields.includes(name))
          return diagnostic(
            'source-tables',
            `unexpected attribute "${name}". Allowed attributes: ${[...fields].sort().join(', ')}`,
            key.name.range,
            `a ${table} entry has no field ${name}; its fields are ${fields.join(', ')}`,
          );
        seen.add(name);
        this.p = skipTrivia(text, key.end + 1, text.length);
        const value = literalToken(text, this.p, text.length);
        if (value.kind === 'end') return STOP;
        const range = { start: value.start, end: Math.max(value.end, value.start + 1) };
        if (value.kind !== 'int')
          return diagnostic('source-tables', 'expects integer', range, `${name} is a number`);
        if (integerOutOfRange(text.slice(value.start, value.end), 's32'))
          return diagnostic(
            'source-tables',
            'value out of range for int32_t',
            range,
            `${name} must fit in 32 bits (-2147483648 to 2147483647)`,
          );
        this.p = skipTrivia(text, value.end, text.length);
        if (this.p >= text.length) return STOP;
      }
      const missing = fields.find((f) => !seen.has(f));
      if (missing)
        return diagnostic(
          'source-tables',
          `sub-attribute ${missing} is expected but not seen`,
          this.at(open),
          `this ${table} entry lacks ${missing}: each has ${fields.join(', ')}`,
        );
      this.p = skipTrivia(text, this.p + 1, text.length);
    }
    return undefined;
  }
}

/**
 * The errors XLA's parser finds in the source tables of the modules of `text`, whose statements
 * (in order) are `statements`: the first in the tables after each `HloModule` line, and each table
 * name that stands after a module's first computation (XLA expects a computation's name there).
 */
export function sourceTableErrors(text: string, statements: Iterable<TableStatement>): LayoutDiagnostic[] {
  const out: LayoutDiagnostic[] = [];
  let inComputations = false;
  for (const s of statements) {
    if (s.kind === 'module') {
      inComputations = false;
      const d = new TableReader(text, s.range.end).read();
      if (d) out.push(d);
    } else if (s.kind === 'computation') inComputations = true;
    else if (inComputations && s.kind === 'unknown') {
      const p = skipTrivia(text, s.range.start, s.range.end);
      const w = readName(text, p, s.range.end);
      if (w && text.charCodeAt(p) !== 37 && TABLES.has(w.name.name))
        out.push(
          diagnostic(
            'source-tables',
            'expects name',
            w.name.range,
            `the ${w.name.name} table stands after a computation: ${ORDER_WORDS}`,
          ),
        );
    }
  }
  return out;
}
