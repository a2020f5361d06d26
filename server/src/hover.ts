/**
 * textDocument/hover: shapes and their layout parts (hover-shape.ts), instruction names (their
 * shape, opcode, sizes and source), references to instructions (the definition's shape), called
 * computations (their signature) and metadata's source_file and source_line (a link to the line).
 * The Markdown is trusted by the client only for the visualizer and open-source commands;
 * everything taken from the document is escaped.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { ArrayShapeNode } from '../../core/src';
import type { LayoutDiagnostic } from '../../core/src';
import {
  explainShapeNode,
  MAX_EXPLAINED_ARRAYS,
  type ArrayExplanation,
  type ShapeExplanation,
} from '../../core/src';
import type { HloStatement, InstructionStatement, StatementShape } from '../../core/src';
import { relaxUncheckedLayouts, validateShape } from '../../core/src';
import { detach } from '../../core/src';
import type { HloDocument } from './document';
import { explainFound } from './explain-found';
import {
  arrayDetails,
  MAX_HOVER_LEVEL,
  partMarkdown,
  tupleDetails,
  visualizerLink,
  type HoverLevel,
} from './hover-shape';
import { arrayVerdict, invalidVerdict, messageMarkdown, tupleVerdict } from './hover-verdict';
import { targetAt, type NameTarget, type ShapeTarget } from './locate';
import { groupDigits } from '../../core/src';
import { cell, code, joinBlocks } from '../../protocol/src/markdown';
import { occurrencesAt } from './navigation';
import { toRange } from './positions';
import { frameChain, instructionSource, sourceLink, sourceLocationIn, sourceOf } from './source-location';
import { arrayLeaves } from './shape-facts';
import { asyncFormOf, hloOpcode } from '../../core/src';
import {
  ATTRIBUTE_TABLE_SOURCE,
  ATTRIBUTE_VALUE_FORMS,
  attributesAccepted,
  type HloAttributeInfo,
} from '../../core/src';
import type { Settings } from '../../protocol/src/settings';

/** A hover whose detail depends on the verbosity level: which it shows, and the highest there is. */
export interface LevelledHover extends Hover {
  readonly verbosity?: { readonly level: HoverLevel; readonly max: HoverLevel };
}

function markdown(
  doc: HloDocument,
  blocks: readonly string[],
  range: { start: number; end: number },
  level?: HoverLevel,
): LevelledHover {
  return {
    contents: { kind: MarkupKind.Markdown, value: joinBlocks(blocks.filter((b) => b.length > 0)) },
    range: toRange(doc.text, range),
    ...(level === undefined ? {} : { verbosity: { level, max: MAX_HOVER_LEVEL } }),
  };
}

/** The rule between a hover's first line and its details (as rust-analyzer and clangd draw it). */
const RULE = '---';

/** What a shape hover shows: the hovered leaf's explanation, or the whole shape's, and the shape's errors. */
export interface TargetExplanation {
  /** The explanation of the array leaf under the cursor, when there is one. */
  readonly leaf?: ArrayExplanation;
  /** The whole shape's explanation; only computed when no leaf explanation stands for it. */
  readonly whole?: ShapeExplanation;
  /** Parser and validator errors of the whole shape. */
  readonly errors: readonly LayoutDiagnostic[];
}

/**
 * Explains what a shape hover needs. On an array leaf of a tuple (or buffer) that the whole
 * explanation would cover (core explains the first MAX_EXPLAINED_ARRAYS leaves), the leaf is
 * explained alone: hovering one element of a 20-array while-loop tuple need not explain all 20.
 * The shape's errors are the same either way: explanations add only advice, never errors.
 */
export function explainTarget(doc: HloDocument, target: ShapeTarget, settings: Settings): TargetExplanation {
  const { found, leaf } = target;
  if (leaf && found.shape.kind !== 'array' && arrayLeaves(found.shape).length <= MAX_EXPLAINED_ARRAYS) {
    const own = explainShapeNode(leaf, doc.text.getText(), [], { assumedTiling: settings.assumedTiling });
    const errors = [...found.diagnostics, ...validateShape(found.shape)].filter(
      (d) => d.severity === 'error',
    );
    return { ...(own.arrays[0] ? { leaf: own.arrays[0] } : {}), errors };
  }
  const e = explainFound(doc, found, settings);
  const match = leaf
    ? e.arrays.find((a) => a.range.start === leaf.range.start && a.range.end === leaf.range.end)
    : undefined;
  return {
    ...(match ? { leaf: match } : {}),
    whole: e,
    errors: e.diagnostics.filter((d) => d.severity === 'error'),
  };
}

/** The body of an array hover, which depends only on the array's text, the settings and the level. */
interface LeafHover {
  /** The first line: the answer (hover-verdict.ts). */
  readonly verdict: string;
  /** The details below it, without the heading (which depends on where the array is). */
  readonly details: (heading: string) => string[];
  /** Whether core could model the array (the visualizer link needs it). */
  readonly modelled: boolean;
  /** The array's text as core read it, for the visualizer link. */
  readonly text: string;
}

/**
 * Array hover bodies by array text, per settings value. A dump repeats a few thousand shapes, and
 * explaining one (tiling plan, sizes, padding, memory map) is most of a hover's time and garbage:
 * the garbage is what made the slowest hovers slow (collections in the middle of one).
 */
const leafHovers = new WeakMap<Settings, Map<string, LeafHover>>();
const MAX_LEAF_HOVERS = 4096;

function leafHover(
  doc: HloDocument,
  target: ShapeTarget,
  leaf: ArrayShapeNode,
  settings: Settings,
  level: HoverLevel,
): LeafHover | undefined {
  let memo = leafHovers.get(settings);
  if (!memo) {
    memo = new Map();
    leafHovers.set(settings, memo);
  }
  const key = `${level}:${doc.text.slice(leaf.range.start, leaf.range.end)}`;
  const hit = memo.get(key);
  if (hit) return hit;
  const a = explainTarget(doc, target, settings).leaf;
  if (!a) return undefined;
  // The details without a heading are computed once; a heading is put in front of the first block.
  const [identity = '', ...rest] = arrayDetails(a, '', settings.maxMemoryMapCells, level);
  const entry: LeafHover = {
    verdict: arrayVerdict(a),
    details: (heading) => [heading ? `${heading} · ${identity}` : identity, ...rest],
    modelled: a.shape !== undefined,
    text: detach(a.text),
  };
  if (memo.size >= MAX_LEAF_HOVERS) memo.clear();
  memo.set(detach(key), entry);
  return entry;
}

/**
 * Longest visualizer link written beside the first line. The link carries the shape's text, so a
 * shape of thousands of dims would make the first line longer than a hover holds
 * (MAX_MARKDOWN_CHARS); its link goes last instead, where a cut hover leaves it out.
 */
const MAX_INLINE_LINK = 4096;

/**
 * The first line (the verdict, or that the shape is invalid, with the visualizer link beside it)
 * and the last block (the link, when too long for the first line).
 */
function firstAndLast(
  verdict: string,
  errors: readonly LayoutDiagnostic[],
  link: string | undefined,
): [first: string, last: string] {
  if (errors.length > 0) return [invalidVerdict(errors), ''];
  if (!link) return [verdict, ''];
  return link.length <= MAX_INLINE_LINK ? [`${verdict} · ${link}`, ''] : [verdict, link];
}

/**
 * A shape's errors as the Problems list has them: where XLA parses a layout but does not check it
 * (a signature, an operand's declared shape, operand_layout_constraints), a validator's error is a
 * warning that says so (core's unchecked-layouts.ts), and the hover must not call it an error.
 */
function asPublished(doc: HloDocument, st: HloStatement, errors: LayoutDiagnostic[]): LayoutDiagnostic[] {
  return relaxUncheckedLayouts(doc.text.getText(), st.range, errors, st);
}

function shapeHover(
  doc: HloDocument,
  st: HloStatement,
  target: ShapeTarget,
  settings: Settings,
  heading: string,
  level: HoverLevel,
): Hover {
  const { found, leaf } = target;
  if (
    !target.part &&
    leaf &&
    (found.shape.kind === 'array' || arrayLeaves(found.shape).length <= MAX_EXPLAINED_ARRAYS)
  ) {
    // An array, or an array of a tuple that core explains: the body comes from the memo.
    const body = leafHover(doc, target, leaf, settings, level);
    if (body) {
      // Explanations add only advice (warnings) to the parser's and validator's diagnostics.
      const errors = asPublished(
        doc,
        st,
        [...found.diagnostics, ...validateShape(found.shape)].filter((d) => d.severity === 'error'),
      );
      const link =
        errors.length === 0 && body.modelled
          ? visualizerLink({ shape: body.text, uri: doc.uri, range: toRange(doc.text, leaf.range) })
          : undefined;
      // With errors there is nothing to lay out: what it is, and every error.
      const details = body.details(heading);
      const [first, last] = firstAndLast(body.verdict, errors, link);
      return markdown(
        doc,
        [first, RULE, ...(errors.length > 0 ? details.slice(0, 1) : details), errorsLine(errors), last],
        leaf.range,
        // Only a valid array has more to show at another level.
        link ? level : undefined,
      );
    }
  }
  const x = explainTarget(doc, target, settings);
  const leafExplanation = x.leaf;
  if (target.part && target.leaf) {
    const r =
      target.part.kind === 'tile' || target.part.kind === 'tile-entry'
        ? target.part.kind === 'tile-entry'
          ? target.part.entry.range
          : target.part.tile.range
        : target.part.attribute.range;
    return markdown(doc, partMarkdown(target.part, leafExplanation, target.leaf), r);
  }
  const e = x.whole;
  const isArray = target.found.shape.kind !== 'tuple' && e?.arrays.length === 1;
  const single = leafExplanation ?? (isArray ? e?.arrays[0] : undefined);
  const errors = asPublished(doc, st, [...x.errors]);
  if (single) {
    const link =
      errors.length === 0 && single.shape
        ? visualizerLink({ shape: single.text, uri: doc.uri, range: toRange(doc.text, single.range) })
        : undefined;
    const details = arrayDetails(single, heading, settings.maxMemoryMapCells, level);
    const [first, last] = firstAndLast(arrayVerdict(single), errors, link);
    return markdown(
      doc,
      [first, RULE, ...(errors.length > 0 ? details.slice(0, 1) : details), errorsLine(errors), last],
      single.range,
      link ? level : undefined,
    );
  }
  const blocks = e
    ? [firstAndLast(tupleVerdict(e), errors, undefined)[0], RULE, ...tupleDetails(e, heading, level)]
    : [heading];
  return markdown(
    doc,
    [...blocks, errorsLine(errors)],
    target.found.shape.range,
    e && e.arrays.length > 0 ? level : undefined,
  );
}

/** Every error of the shape beyond the first, which the first line names. */
function errorsLine(errors: readonly LayoutDiagnostic[]): string {
  if (errors.length < 2) return '';
  const what = errors.every((d) => d.severity === 'error') ? 'errors' : 'problems';
  return `**All ${errors.length} ${what}:**\n${errors.map((d) => `- ${messageMarkdown(d)} \\[${d.code}\\]`).join('\n')}`;
}

/** What XLA's opcode list says of `opcode`: its operand count, or that it is not one of XLA's. */
function opcodeLine(opcode: string): string {
  const info = hloOpcode(opcode);
  const async = asyncFormOf(opcode);
  if (async) return `${code(opcode)}: the asynchronous form of XLA's ${code(async.wrapped.name)}`;
  if (!info) return `${code(opcode)}: not an opcode of XLA's HLO_OPCODE_LIST`;
  const operands =
    info.operands === 'variadic'
      ? 'any number of operands'
      : `${info.operands} operand${info.operands === 1 ? '' : 's'}`;
  return `${code(opcode)} (XLA opcode): ${operands}`;
}

/** What XLA's parser takes for the attribute `key` (one of `accepted`) on `where`: the form of its value, or that it takes no such attribute there. */
function attributeLine(accepted: readonly HloAttributeInfo[], key: string, where: string): string {
  const info = accepted.find((a) => a.name === key);
  if (!info)
    return `${code(key)}: not an attribute XLA's parser accepts on ${where} (as of ${ATTRIBUTE_TABLE_SOURCE})`;
  return `${code(key)} (attribute of ${where}${info.required ? ', required' : ''}): ${cell(ATTRIBUTE_VALUE_FORMS[info.value])}`;
}

/** The first line of a shape's hover, for the hover of the instruction it is the result of. */
function shapeVerdict(doc: HloDocument, found: StatementShape, settings: Settings): string {
  const e = explainFound(doc, found, settings);
  const errors = e.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) return invalidVerdict(errors);
  const only = found.shape.kind !== 'tuple' && e.arrays.length === 1 ? e.arrays[0] : undefined;
  return only ? arrayVerdict(only) : tupleVerdict(e);
}

/** An instruction: `%name = shape opcode`, then what its result takes in memory, its op_name and source. */
function instructionSummary(
  doc: HloDocument,
  index: number,
  st: InstructionStatement,
  settings: Settings,
): string[] {
  const text = doc.text.getText();
  const shapeText = st.shape ? text.slice(st.shape.range.start, st.shape.range.end) : '';
  const lines = [
    `${code(`%${st.name.name} = ${shapeText} ${st.opcode?.name ?? ''}`.trim())}${st.root ? ' (ROOT)' : ''}`,
  ];
  const found = st.shapes.find((f) => f.shape === st.shape);
  if (found) lines.push(shapeVerdict(doc, found, settings));
  if (st.metadata?.opName) lines.push(`op_name: ${code(st.metadata.opName)}`);
  const source = instructionSource(doc, index, st);
  if (source) {
    const target = sourceOf(source, doc.uri);
    lines.push(
      `source: ${code(`${source.file}${source.line !== undefined ? `:${source.line}` : ''}`)}${target ? ` — ${sourceLink(source.file, target, doc.uri)}` : ''}`,
    );
    const chain = source.frame && frameChain(source.frame, doc.uri);
    if (chain) lines.push(chain);
  }
  return lines;
}

async function nameHover(
  doc: HloDocument,
  index: number,
  st: HloStatement,
  target: NameTarget,
  settings: Settings,
): Promise<Hover | null> {
  const range = target.name.range;
  if (target.role === 'instruction-definition') {
    return st.kind === 'instruction'
      ? markdown(doc, instructionSummary(doc, index, st, settings), range)
      : null;
  }
  const occ = await occurrencesAt(doc, range.start);
  if (!occ?.definition)
    return markdown(
      doc,
      [
        `${code(target.name.name)}: no definition in this ${occ?.kind === 'computation' ? 'module' : 'computation'}.`,
      ],
      range,
    );
  const defIndex = doc.statementIndexAt(occ.definition.start);
  const def: HloStatement | undefined = defIndex >= 0 ? doc.parse(defIndex) : undefined;
  if (def?.kind === 'instruction')
    return markdown(doc, instructionSummary(doc, defIndex, def, settings), range);
  if (def?.kind === 'computation') {
    const text = doc.text.getText();
    const signature = text.slice(def.range.start, def.range.end).replace(/\s*\{\s*$/, '');
    const attr = target.attribute ? ` (named by ${cell(target.attribute)}=)` : '';
    return markdown(doc, [`**Computation**${def.entry ? ' (ENTRY)' : ''}${attr}`, code(signature)], range);
  }
  return null;
}

/**
 * textDocument/hover at `offset`. `level`: how much a shape hover says (hover-shape.ts); editors
 * that cannot ask for more get everything.
 */
export async function hover(
  doc: HloDocument,
  offset: number,
  settings: Settings,
  level: HoverLevel = MAX_HOVER_LEVEL,
): Promise<LevelledHover | null> {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return null;
  // One parse serves all: metadata's source, then names, then shapes (targetAt looks at names first).
  const st = doc.parseAt(index, offset);
  const source = sourceLocationIn(doc, index, st, offset);
  if (source) {
    const line = `line ${groupDigits(BigInt(source.line + 1))}`;
    const frame = source.frame;
    const chain = frame && frameChain(frame, doc.uri);
    return markdown(
      doc,
      [
        `**Source** ${code(source.path)}, ${line}${frame ? ` (stack frame ${frame.id}${frame.function !== undefined ? `, in ${code(frame.function)}` : ''})` : ''}`,
        `${sourceLink(source.path, source, doc.uri)} · Go to Definition (F12) opens it too.`,
        ...(chain ? [chain] : []),
      ],
      source.origin,
    );
  }
  const frameRange = st.kind === 'instruction' ? st.metadata?.stackFrameIdRange : undefined;
  if (frameRange && frameRange.start <= offset && offset <= frameRange.end)
    return markdown(
      doc,
      [
        `Stack frame ${code(doc.text.slice(frameRange.start, frameRange.end))}: not in this module's \`StackFrames\` table, or its file and line are not recorded.`,
      ],
      frameRange,
    );
  const target = targetAt(st, offset);
  if (target?.kind === 'name') return nameHover(doc, index, st, target, settings);
  if (
    st.kind === 'instruction' &&
    st.opcode &&
    st.opcode.range.start <= offset &&
    offset <= st.opcode.range.end
  ) {
    return markdown(
      doc,
      [opcodeLine(st.opcode.name), ...instructionSummary(doc, index, st, settings)],
      st.opcode.range,
    );
  }
  const accepted = attributesAccepted(st);
  const key =
    accepted && (st.kind === 'instruction' || st.kind === 'module')
      ? st.attributes.find((a) => a.key.range.start <= offset && offset <= a.key.range.end)?.key
      : undefined;
  if (accepted && key) {
    const where = st.kind === 'instruction' && st.opcode ? code(st.opcode.name) : 'the `HloModule` line';
    return markdown(doc, [attributeLine(accepted, key.name, where)], key.range);
  }
  if (target?.kind !== 'shape') return null;
  let heading = '';
  if (st.kind === 'instruction' && target.found.shape === st.shape)
    heading = `Result of ${code(`%${st.name.name}`)}`;
  else if (st.kind === 'computation') {
    const p = st.parameters.find((x) => x.shape === target.found.shape);
    if (p) heading = `Parameter ${code(p.name)}`;
  }
  return shapeHover(doc, st, target, settings, heading, level);
}
