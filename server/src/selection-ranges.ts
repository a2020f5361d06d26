/**
 * textDocument/selectionRange (Expand Selection, Shift+Alt+Right): from the smallest piece of HLO
 * around the cursor outwards. In a shape: a tile entry or dimension, its tile or dimension list,
 * the tiles `T(...)(...)`, the layout `{...}`, the array shape, each tuple around it; or a name.
 * Then the statement, its computation (and those a computation written in place is in) and its
 * module.
 */
import type { SelectionRange } from 'vscode-languageserver';
import type { ShapeNode } from '../../core/src';
import type { TextRange } from '../../core/src';
import type { ComputationEntry, HloDocument } from './document';
import { inside, shapePath, targetAt } from './locate';
import { computationsInModule } from './navigation';
import { toRange } from './positions';

/** Nested shapes listed around the cursor, innermost first (the outermost shape comes last anyway). */
const MAX_SHAPE_LEVELS = 16;

/** The same for computations written in place inside each other: the nearest few, then the named one around them. */
const MAX_INLINE_LEVELS = 4;

/** The pieces of a shape around `offset`, innermost first. */
function shapeRanges(shape: ShapeNode, offset: number): TextRange[] {
  const chain = shapePath(shape, offset);
  const out: TextRange[] = [];
  const leaf = chain[chain.length - 1];
  if (leaf?.kind === 'array') {
    const layout = leaf.layout;
    if (inside(leaf.dimsRange, offset)) {
      const dim = leaf.dims.find((d) => inside(d.range, offset));
      if (dim) out.push(dim.range);
      out.push(leaf.dimsRange);
    } else if (layout && inside(layout.range, offset)) {
      const tiles = layout.tiles;
      const tile = tiles?.tiles.find((t) => inside(t.range, offset));
      const entry = tile?.entries.find((e) => inside(e.range, offset));
      if (entry) out.push(entry.range);
      if (tile) out.push(tile.range);
      if (tiles && inside(tiles.range, offset)) out.push(tiles.range);
      const attribute = [layout.memorySpace, layout.elementSizeBits, layout.tailPaddingAlignment].find(
        (a) => a && inside(a.range, offset),
      );
      if (attribute) out.push(attribute.range);
      out.push(layout.range);
    }
  }
  // The tuples nearest the array, then the whole shape: a chain as deep as a hostile 10,000-level
  // tuple would be useless to expand through and heavy to send.
  for (let i = chain.length - 1; i >= Math.max(0, chain.length - MAX_SHAPE_LEVELS); i--)
    out.push(chain[i].range);
  if (chain.length > MAX_SHAPE_LEVELS) out.push(chain[0].range);
  return out;
}

/** `range` without the blanks at its ends (a statement's indentation is not part of it). */
function trimmed(text: string, range: TextRange): TextRange {
  let { start, end } = range;
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return { start, end };
}

/** The ranges around `offset`, innermost first, each containing the one before. */
function rangesAt(doc: HloDocument, offset: number): TextRange[] {
  const index = doc.statementIndexAt(offset);
  if (index < 0) return [];
  const out: TextRange[] = [];
  const target = targetAt(doc.parseAt(index, offset), offset);
  if (target?.kind === 'name') out.push(target.name.range);
  else if (target?.kind === 'shape') out.push(...shapeRanges(target.found.shape, offset));
  const statement = trimmed(doc.text.getText(), doc.range(index));
  out.push(inside(statement, offset) ? statement : doc.range(index));
  const c = doc.computationOf(index);
  if (c) {
    // A computation written in place, then the ones it is written in: the nearest few and the outermost.
    let levels = 0;
    for (let k: ComputationEntry | undefined = c; k; k = doc.around(k)) {
      if (levels++ < MAX_INLINE_LEVELS || k.parent === undefined)
        out.push({ start: doc.computationStart(k), end: doc.range(k.last).end });
    }
    const module = computationsInModule(doc, index);
    const first = c.module >= 0 && doc.summary(c.module).kind === 'module' ? c.module : module[0].header;
    out.push({ start: doc.range(first).start, end: doc.range(module[module.length - 1].last).end });
  }
  // Drop repeats and anything that would not contain what is already selected.
  const kept: TextRange[] = [];
  for (const r of out) {
    const last = kept[kept.length - 1];
    if (!last || (r.start <= last.start && r.end >= last.end && (r.start < last.start || r.end > last.end)))
      kept.push(r);
  }
  return kept;
}

/** textDocument/selectionRange: one chain per position (an empty range where nothing encloses it). */
export function selectionRanges(doc: HloDocument, offsets: readonly number[]): SelectionRange[] {
  return offsets.map((offset) => {
    const ranges = rangesAt(doc, offset);
    if (ranges.length === 0) return { range: toRange(doc.text, { start: offset, end: offset }) };
    let selection: SelectionRange | undefined;
    for (let i = ranges.length - 1; i >= 0; i--)
      selection = { range: toRange(doc.text, ranges[i]), ...(selection ? { parent: selection } : {}) };
    return selection!;
  });
}
