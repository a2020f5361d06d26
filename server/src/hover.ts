/**
 * textDocument/hover: shapes and their layout parts (hover-shape.ts), instruction names (their
 * shape, opcode and sizes), references to instructions (the definition's shape) and called
 * computations (their signature). The Markdown is trusted by the client only for the visualizer
 * command; everything taken from the document is escaped.
 */
import { MarkupKind, type Hover } from 'vscode-languageserver';
import type { HloStatement, InstructionStatement } from '../../core/src/hlo';
import type { HloDocument } from './document';
import { explainFound } from './custom-requests';
import { arrayMarkdown, partMarkdown, tupleMarkdown, visualizerLink } from './hover-shape';
import { targetAt, type NameTarget, type ShapeTarget } from './locate';
import { cell, code, groupDigits, humanBytes } from './markdown';
import { nameAt, occurrencesAt } from './navigation';
import { toRange } from './positions';
import { formatFactor } from './shape-facts';
import type { Settings } from './settings';

function markdown(doc: HloDocument, lines: readonly string[], range: { start: number; end: number }): Hover {
  return { contents: { kind: MarkupKind.Markdown, value: lines.filter((l) => l.length > 0).join('\n\n') }, range: toRange(doc.text, range) };
}

function shapeHover(doc: HloDocument, target: ShapeTarget, settings: Settings, heading: string): Hover {
  const e = explainFound(doc, target.found, settings);
  const leafExplanation = target.leaf ? e.arrays.find((a) => a.range.start === target.leaf!.range.start && a.range.end === target.leaf!.range.end) : undefined;
  const lines: string[] = [];
  if (target.part && target.leaf) {
    lines.push(...partMarkdown(target.part, leafExplanation, target.leaf));
    const r = target.part.kind === 'tile' || target.part.kind === 'tile-entry' ? (target.part.kind === 'tile-entry' ? target.part.entry.range : target.part.tile.range) : target.part.attribute.range;
    return markdown(doc, lines, r);
  }
  if (heading) lines.push(heading);
  const isArray = target.found.shape.kind !== 'tuple' && e.arrays.length === 1;
  const single = leafExplanation ?? (isArray ? e.arrays[0] : undefined);
  if (single) lines.push(...arrayMarkdown(single, settings.maxMemoryMapCells));
  else lines.push(...tupleMarkdown(e));
  const errors = e.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0) lines.push(`**${errors.length} error(s):** ${errors.map((d) => `${cell(d.message)} \\[${d.code}\\]`).join('; ')}`);
  if (single && !e.hasErrors && single.shape) {
    lines.push(visualizerLink({ shape: single.text, uri: doc.uri, range: toRange(doc.text, single.range) }));
  }
  return markdown(doc, lines, single?.range ?? target.found.shape.range);
}

/** One line about an instruction: `%name = shape opcode` with its sizes. */
function instructionSummary(doc: HloDocument, st: InstructionStatement, settings: Settings): string[] {
  const text = doc.text.getText();
  const shapeText = st.shape ? text.slice(st.shape.range.start, st.shape.range.end) : '';
  const lines = [`${code(`%${st.name.name} = ${shapeText} ${st.opcode?.name ?? ''}`.trim())}${st.root ? ' (ROOT)' : ''}`];
  const found = st.shapes.find((f) => f.shape === st.shape);
  if (found) {
    const e = explainFound(doc, found, settings);
    let logical = 0n;
    let physical = 0n;
    for (const a of e.arrays) {
      logical += a.sizes?.logicalBytes ?? 0n;
      physical += a.sizes?.physicalBytes ?? 0n;
    }
    const factor = logical > 0n && physical !== logical ? ` — ${formatFactor(Number((physical * 1000n) / logical) / 1000)}` : '';
    lines.push(`${groupDigits(logical)} B logical (${humanBytes(logical)}), ${groupDigits(physical)} B physical (${humanBytes(physical)})${factor}`);
  }
  if (st.metadata?.opName) lines.push(`op_name: ${code(st.metadata.opName)}`);
  if (st.metadata?.sourceFile) lines.push(`source: ${code(`${st.metadata.sourceFile}${st.metadata.sourceLine !== undefined ? `:${st.metadata.sourceLine}` : ''}`)}`);
  return lines;
}

async function nameHover(doc: HloDocument, index: number, target: NameTarget, settings: Settings): Promise<Hover | null> {
  const range = target.name.range;
  if (target.role === 'instruction-definition') {
    const st = doc.parse(index);
    return st.kind === 'instruction' ? markdown(doc, instructionSummary(doc, st, settings), range) : null;
  }
  const occ = await occurrencesAt(doc, range.start);
  if (!occ?.definition) return markdown(doc, [`${code(target.name.name)}: no definition in this ${occ?.kind === 'computation' ? 'module' : 'computation'}.`], range);
  const defIndex = doc.statementIndexAt(occ.definition.start);
  const def: HloStatement | undefined = defIndex >= 0 ? doc.parse(defIndex) : undefined;
  if (def?.kind === 'instruction') return markdown(doc, instructionSummary(doc, def, settings), range);
  if (def?.kind === 'computation') {
    const text = doc.text.getText();
    const signature = text.slice(def.range.start, def.range.end).replace(/\s*\{\s*$/, '');
    const attr = target.attribute ? ` (named by ${cell(target.attribute)}=)` : '';
    return markdown(doc, [`**Computation**${def.entry ? ' (ENTRY)' : ''}${attr}`, code(signature)], range);
  }
  return null;
}

/** textDocument/hover at `offset`. */
export async function hover(doc: HloDocument, offset: number, settings: Settings): Promise<Hover | null> {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return null;
  const name = nameAt(doc, offset);
  if (name) return nameHover(doc, name.index, name.target, settings);
  const st = doc.parse(index);
  const target = targetAt(st, offset);
  if (target?.kind !== 'shape') return null;
  let heading = '';
  if (st.kind === 'instruction' && target.found.shape === st.shape) heading = `Result of ${code(`%${st.name.name}`)}`;
  else if (st.kind === 'computation') {
    const p = st.parameters.find((x) => x.shape === target.found.shape);
    if (p) heading = `Parameter ${code(p.name)}`;
  }
  return shapeHover(doc, target, settings, heading);
}
