/**
 * textDocument/completion where HLO text takes a name, for people writing HLO by hand (XLA's `.hlo`
 * tests): instruction names defined above as operands of an instruction (`add(%a, %|`) and in
 * `control-predecessors={...}`, with their shapes; computation names after `calls=`, `to_apply=`,
 * `body=`, ... (and in `branch_computations={...}`), with their signatures; the element type that
 * starts an instruction's shape (`%x = |`) and the opcode after it (`%x = f32[8]{0} |`); the keys
 * of the attributes XLA's parser accepts on the opcode after its operands (`add(%a, %b), |`) and in
 * the module header (`HloModule m, |`). Names are
 * scoped as navigation scopes them (instructions to their computation, computations to their
 * module). Nowhere else: not inside shapes, strings, literals (`constant(...)`) or other attributes.
 */
import {
  CompletionItemKind,
  type CompletionItem,
  type CompletionList,
  type Range,
} from 'vscode-languageserver';
import { LITERAL_OPCODES } from '../../core/src';
import { isIdentifierChar } from '../../core/src';
import { declaredName, skipString, skipTrivia } from '../../core/src';
import { asyncFormOf, HLO_OPCODES, hloOpcode } from '../../core/src';
import { ATTRIBUTE_VALUE_FORMS, attributesAccepted, COMPUTATION_ATTRIBUTES } from '../../core/src';
import type { HloStatement } from '../../core/src';
import { parseShape } from '../../core/src';
import { PRIMITIVE_TYPE_NAMES, primitiveType } from '../../core/src';
import type { HloDocument } from './document';
import { computationsInModule } from './navigation';
import { toRange } from './positions';

/** What the cursor stands where: a name, an attribute's key, or one of the fixed lists of {@link KEYWORD_LISTS}. */
type NameSlot = 'instruction' | 'computation' | 'attribute' | KeywordSlot;
type KeywordSlot = 'element-type' | 'opcode' | 'fusion-kind' | 'direction';

/** Signatures longer than this are cut in the completion list's detail. */
const MAX_DETAIL = 160;

/**
 * The kind of name the statement starting at `start` takes at `at` (where the name being typed
 * begins, after any `%`), or undefined. Reads the statement up to there, skipping strings and
 * keeping the brackets still open.
 */
function nameSlotAt(text: string, start: number, at: number): NameSlot | undefined {
  const instructionSlot = resultSlotAt(text, start, at);
  if (instructionSlot) return instructionSlot;
  // Each open bracket with the offset it opened at.
  const open: { char: number; at: number }[] = [];
  let i = start;
  while (i < at) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = skipString(text, i, at);
      // Inside a string that is still open at the cursor: no names there.
      if (i >= at && text.charCodeAt(at - 1) !== 34) return undefined;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) open.push({ char: c, at: i });
    else if (c === 41 || c === 93 || c === 125) open.pop();
    i++;
  }
  const p = skipBlanksBack(text, text.charCodeAt(at - 1) === 37 ? at - 1 : at, start);
  const before = text.charCodeAt(p - 1);
  const top = open[open.length - 1];
  if (open.length === 1 && top.char === 40 && (before === 40 || before === 44)) {
    // An operand list: `opcode(` with the opcode right before the parenthesis.
    const opcode = wordBefore(text, top.at, start);
    return opcode !== undefined && !LITERAL_OPCODES.has(opcode) && /=/.test(text.slice(start, top.at))
      ? 'instruction'
      : undefined;
  }
  if (open.length === 0 && before === 61) return attributeSlot(wordBefore(text, p - 1, start));
  // `opcode(...), |`: an attribute's key (whether the statement is an instruction is asked later).
  if (open.length === 0 && before === 44) return 'attribute';
  if (open.length === 1 && top.char === 123 && (before === 123 || before === 44)) {
    // A list value: `key={a, b}`.
    const eq = skipBlanksBack(text, top.at, start);
    return text.charCodeAt(eq - 1) === 61 ? attributeSlot(wordBefore(text, eq - 1, start)) : undefined;
  }
  return undefined;
}

/** `[ROOT] name = |shape opcode(`: the element type where the shape starts, the opcode after a whole shape. */
function resultSlotAt(text: string, start: number, at: number): NameSlot | undefined {
  const name = declaredName(text, { start, end: at }, 'ROOT');
  if (!name || text.charCodeAt(at - 1) === 37) return undefined;
  const eq = skipTrivia(text, name.range.end, at);
  if (text.charCodeAt(eq) !== 61) return undefined;
  const shapeStart = skipTrivia(text, eq + 1, at);
  if (shapeStart === at) return 'element-type';
  const shape = parseShape(text, shapeStart, { end: at });
  return shape.shape && shape.end < at && skipTrivia(text, shape.end, at) === at ? 'opcode' : undefined;
}

function attributeSlot(key: string | undefined): NameSlot | undefined {
  if (key === undefined) return undefined;
  if (COMPUTATION_ATTRIBUTES.has(key)) return 'computation';
  if (key === 'kind') return 'fusion-kind';
  if (key === 'direction') return 'direction';
  return key === 'control-predecessors' ? 'instruction' : undefined;
}

function skipBlanksBack(text: string, end: number, start: number): number {
  let p = end;
  while (p > start && /\s/.test(text[p - 1] ?? '')) p--;
  return p;
}

/** The identifier ending right before `end` (blanks skipped), or undefined. */
function wordBefore(text: string, end: number, start: number): string | undefined {
  const e = skipBlanksBack(text, end, start);
  let s = e;
  while (s > start && isIdentifierChar(text.charCodeAt(s - 1))) s--;
  return s < e ? text.slice(s, e) : undefined;
}

/**
 * At most this many names per answer. ENTRY computations of large dumps hold tens of thousands of
 * instructions: the nearest (or the ones matching what is typed) are listed, and the list is marked
 * incomplete so the editor asks again as the name is typed.
 */
const MAX_COMPLETIONS = 200;

/** Whether `name` holds the letters of `typed` in order, ignoring case (as editors filter completions). */
function matches(name: string, typed: string): boolean {
  let j = 0;
  const lower = name.toLowerCase();
  for (let i = 0; i < lower.length && j < typed.length; i++) if (lower[i] === typed[j]) j++;
  return j === typed.length;
}

/** The names offered, in order, up to {@link MAX_COMPLETIONS}. */
class NameItems {
  readonly items: CompletionItem[] = [];
  incomplete = false;

  constructor(
    private readonly text: string,
    private readonly range: Range,
    /** Whether the `%` was typed: otherwise a name is written with one when its definition has one. */
    private readonly typedSigil: boolean,
  ) {}

  /** Adds the name defined at `definition`; false once the list is full (it is then marked incomplete). */
  add(name: string, definition: number, kind: CompletionItemKind, detail: () => string): boolean {
    if (this.items.length === MAX_COMPLETIONS) {
      this.incomplete = true;
      return false;
    }
    const sigil = !this.typedSigil && this.text.charCodeAt(definition - 1) === 37 ? '%' : '';
    const sortText = String(this.items.length).padStart(6, '0');
    this.items.push({
      label: name,
      kind,
      detail: detail(),
      sortText,
      filterText: name,
      textEdit: { range: this.range, newText: sigil + name },
    });
    return true;
  }
}

/** textDocument/completion at `offset`. */
export function completions(doc: HloDocument, offset: number): CompletionList {
  const text = doc.text.getText();
  // What is being typed: from after its `%` (if any) to the cursor.
  let from = offset;
  while (from > 0 && isIdentifierChar(text.charCodeAt(from - 1))) from--;
  const typedSigil = text.charCodeAt(from - 1) === 37;
  const index = doc.statementIndexAt(typedSigil ? from - 1 : from);
  const slot = index < 0 ? undefined : nameSlotAt(text, doc.range(index).start, from);
  if (!slot) return { isIncomplete: false, items: [] };
  const typed = text.slice(from, offset).toLowerCase();
  const range = toRange(doc.text, { start: from, end: offset });
  if (slot === 'attribute')
    return { isIncomplete: false, items: attributeItems(doc.parse(index), from, typed, range, doc) };
  if (slot !== 'instruction' && slot !== 'computation')
    return { isIncomplete: false, items: keywordItems(slot, typed, range) };
  const list = new NameItems(text, range, typedSigil);
  if (slot === 'computation') addComputations(doc, index, typed, list);
  else addInstructions(doc, index, typed, list);
  return { isIncomplete: list.incomplete, items: list.items };
}

/** The computations of the module of statement `index` but its own, with their signatures. */
function addComputations(doc: HloDocument, index: number, typed: string, list: NameItems): void {
  const text = doc.text.getText();
  const own = doc.computationOf(index);
  for (const c of computationsInModule(doc, index)) {
    if (c.name === undefined || c === own || !matches(c.name, typed)) continue;
    const header = doc.range(c.header);
    const signature = () => {
      const s = text
        .slice(header.start, header.end)
        .replace(/\s*\{\s*$/, '')
        .trim();
      return s.length > MAX_DETAIL ? `${s.slice(0, MAX_DETAIL)}…` : s;
    };
    const at = declaredName(text, header, 'ENTRY')?.range.start ?? header.start;
    if (!list.add(c.name, at, CompletionItemKind.Function, signature)) return;
  }
}

/**
 * The instructions defined above statement `index` in its computation, nearest first (operands are
 * mostly the instructions just above), with their shapes and opcodes. Not those further down: XLA's
 * parser reads a computation in one pass and rejects an operand defined after its use
 * (instruction-undefined). Computations written in place in this one are skipped: their names are
 * theirs, as in XLA's parser.
 */
function addInstructions(doc: HloDocument, index: number, typed: string, list: NameItems): void {
  const text = doc.text.getText();
  const computation = doc.computationOf(index);
  if (!computation) return;
  for (const i of doc.statementsBefore(computation, index)) {
    if (doc.summary(i).kind !== 'instruction') continue;
    const name = declaredName(text, doc.range(i), 'ROOT');
    if (!name || !matches(name.name, typed)) continue;
    const detail = () => {
      const st = doc.parse(i);
      return st.kind === 'instruction'
        ? `${st.shape ? text.slice(st.shape.range.start, st.shape.range.end) : ''} ${st.opcode?.name ?? ''}`.trim()
        : '';
    };
    if (!list.add(name.name, name.range.start, CompletionItemKind.Variable, detail)) return;
  }
}

interface Keyword {
  readonly name: string;
  readonly kind: CompletionItemKind;
  readonly detail: string;
}

/**
 * The fixed lists, as XLA has them: element types, opcodes (HLO_OPCODE_LIST), fusion kinds
 * (HloInstruction::FusionKind) and comparison directions (ComparisonDirection).
 */
const KEYWORD_LISTS: Record<KeywordSlot, () => readonly Keyword[]> = {
  'element-type': () =>
    PRIMITIVE_TYPE_NAMES.map((name) => ({
      name,
      kind: CompletionItemKind.TypeParameter,
      detail: elementTypeDetail(name),
    })),
  opcode: () =>
    HLO_OPCODES.map((o) => ({
      name: o.name,
      kind: CompletionItemKind.Function,
      detail:
        o.operands === 'variadic'
          ? 'any number of operands'
          : `${o.operands} operand${o.operands === 1 ? '' : 's'}`,
    })),
  'fusion-kind': () =>
    [
      ['kLoop', 'a loop over the output elements'],
      ['kInput', 'a reduction fused with its inputs'],
      ['kOutput', 'a dot or convolution fused with its users'],
      ['kCustom', 'a backend-specific fusion'],
    ].map(([name, detail]) => ({ name, kind: CompletionItemKind.EnumMember, detail })),
  direction: () =>
    [
      ['EQ', 'equal'],
      ['NE', 'not equal'],
      ['GE', 'greater or equal'],
      ['GT', 'greater'],
      ['LE', 'less or equal'],
      ['LT', 'less'],
    ].map(([name, detail]) => ({ name, kind: CompletionItemKind.EnumMember, detail })),
};

/** The entries of a fixed list that match what is typed (the lists are short: all of them). */
function keywordItems(slot: KeywordSlot, typed: string, range: Range): CompletionItem[] {
  return [...KEYWORD_LISTS[slot](), ...(slot === 'opcode' ? asyncForms(typed) : [])]
    .filter((e) => matches(e.name, typed))
    .map((e) => ({
      label: e.name,
      kind: e.kind,
      detail: e.detail,
      filterText: e.name,
      textEdit: { range, newText: e.name },
    }));
}

/**
 * Once an opcode and a `-` are typed (`call-`), its asynchronous forms, which XLA's parser reads as
 * `async-start`, `async-update` and `async-done` wrapping it (`call-start`); those that are opcodes
 * of their own (`all-reduce-start`) are in the list already.
 */
function asyncForms(typed: string): Keyword[] {
  const base = typed.slice(0, typed.lastIndexOf('-'));
  if (hloOpcode(base) === undefined) return [];
  return ['start', 'update', 'done']
    .map((step) => `${base}-${step}`)
    .filter((name) => asyncFormOf(name) !== undefined)
    .map((name) => ({ name, kind: CompletionItemKind.Function, detail: `the asynchronous form of ${base}` }));
}

/**
 * The attributes XLA's parser accepts on the instruction `st` (its opcode's own first, required
 * ones at the top, then those of every instruction) or in the `HloModule` line `st`, but those it
 * has already. Typed over an existing key (`dimen|sions={0}`), the item replaces that key;
 * elsewhere it inserts `key=`.
 */
function attributeItems(
  st: HloStatement,
  from: number,
  typed: string,
  range: Range,
  doc: HloDocument,
): CompletionItem[] {
  const accepted = attributesAccepted(st);
  if (!accepted || (st.kind !== 'instruction' && st.kind !== 'module')) return [];
  const existing = st.attributes.find((a) => a.key.range.start === from)?.key;
  const present = new Set(st.attributes.filter((a) => a.key !== existing).map((a) => a.key.name));
  const editRange = existing ? toRange(doc.text, { start: from, end: existing.range.end }) : range;
  return accepted
    .filter((a) => !present.has(a.name) && matches(a.name, typed))
    .map((a, i) => ({
      label: a.name,
      kind: CompletionItemKind.Property,
      detail: `${a.required ? 'required · ' : ''}${ATTRIBUTE_VALUE_FORMS[a.value]}`,
      sortText: String(i).padStart(3, '0'),
      filterText: a.name,
      textEdit: { range: editRange, newText: existing ? a.name : `${a.name}=` },
    }));
}

function elementTypeDetail(name: string): string {
  const t = primitiveType(name);
  if (!t || !t.isArray) return 'no array elements';
  return `${t.bits}-bit elements`;
}
