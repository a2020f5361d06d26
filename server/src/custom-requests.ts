/**
 * The custom requests of protocol/src/lsp.ts: `xlaLayout/analyzeShape` (the full analysis of the
 * shape at a position, JSON-safe) and `xlaLayout/paddingReport` (the instructions wasting the most
 * bytes, worst first, and the totals of all).
 */
import type { CancellationToken } from 'vscode-languageserver';
import {
  capLists,
  elide,
  groupDigits,
  MAX_JSON_LIST,
  readableMessage,
  relaxUncheckedLayouts,
  type ArrayExplanation,
  type LayoutDiagnostic,
  type ShapeExplanation,
} from '../../core/src';
import type { HloStatement, StatementShape } from '../../core/src';
import type { Ratio } from '../../core/src';
import { PADDING_REPORT_MAX_ROWS, PADDING_REPORT_ROWS } from '../../protocol/src/lsp';
import type {
  AnalyzeShapeResult,
  ArrayAnalysis,
  JsonRatio,
  PaddingReportResult,
  PaddingReportRow,
  ShapeAnalysis,
  TextCut,
} from '../../protocol/src/lsp';
import type { Analyzer } from './analyzer';
import type { HloDocument } from './document';
import { explainFound } from './explain-found';
import { TimeSlice } from './guard';
import { instructionRow } from './instruction-row';
import { instructionSource } from './source-location';
import { shapeAt } from './locate';
import { toRange } from './positions';
import type { Settings } from '../../protocol/src/settings';
import { printTile } from '../../core/src';

function ratioJson(r: Ratio): JsonRatio {
  return { numerator: r.numerator.toString(), denominator: r.denominator.toString(), value: r.value };
}

/**
 * A shape's text for an answer: past MAX_JSON_LIST characters its ends only, since a 200,000-leaf
 * tuple is megabytes and the range locates it whole.
 */
function quoted(text: string): { text: string; textCut?: TextCut } {
  if (text.length <= MAX_JSON_LIST) return { text };
  return { text: elide(text, MAX_JSON_LIST), textCut: { length: text.length } };
}

const str = (values: readonly bigint[]): string[] => values.map((v) => v.toString());

function arrayJson(doc: HloDocument, a: ArrayExplanation): ArrayAnalysis {
  return {
    path: a.path,
    ...quoted(a.text),
    range: toRange(doc.text, a.range),
    elementType: a.elementType,
    ...(a.error ? { error: a.error.message } : {}),
    dims: a.dims.map((d) => ({
      dim: d.dim,
      size: d.size.toString(),
      dynamic: d.dynamic,
      physicalPosition: d.physicalPosition,
    })),
    physicalOrder: a.physicalOrder,
    physicalDims: str(a.physicalDims),
    tiles: a.tiles,
    ...(a.assumed ? { assumed: a.assumed } : {}),
    steps: (a.plan?.steps ?? []).map((s) => ({
      level: s.level,
      tile: printTile(s.tile),
      input: str(s.input),
      vectorPadding: s.vectorPadding,
      combined: str(s.combined),
      padded: str(s.padded),
      reshaped: str(s.reshaped),
      output: str(s.output),
    })),
    expandedShape: str(a.plan?.expandedShape ?? []),
    ...(a.sizes
      ? {
          sizes: {
            logicalElements: a.sizes.logicalElements.toString(),
            logicalBytes: a.sizes.logicalBytes.toString(),
            physicalElements: a.sizes.physicalElements.toString(),
            physicalBytes: a.sizes.physicalBytes.toString(),
            arraySizeBytes: a.sizes.arraySizeBytes === null ? null : a.sizes.arraySizeBytes.toString(),
            elementSizeBits: a.sizes.elementSizeBits,
            ...(a.sizes.expansion ? { expansion: ratioJson(a.sizes.expansion) } : {}),
            ...(a.sizes.overhead ? { overhead: ratioJson(a.sizes.overhead) } : {}),
          },
        }
      : {}),
    padding: (a.padding?.dimensions ?? []).map((d) => ({
      dim: d.dim,
      size: d.size.toString(),
      physicalPosition: d.physicalPosition,
      isMinorMost: d.isMinorMost,
      factor: ratioJson(d.factor),
      causes: d.causes.map((c) => ({
        level: c.level,
        tileEntry: c.tileEntry,
        tileSize: c.tileSize.toString(),
        from: c.from.toString(),
        to: c.to.toString(),
        factor: ratioJson(c.factor),
      })),
    })),
    ...(a.fix
      ? {
          fix: {
            kind: a.fix.kind,
            description: a.fix.description,
            physicalBytes: a.fix.physicalBytes.toString(),
            savedBytes: a.fix.savedBytes.toString(),
          },
        }
      : {}),
    memorySpace: a.memorySpace,
  };
}

/**
 * Most characters of JSON the arrays of one analysis hold (about): the 256 leaves core explains,
 * each with a tuple path up to 8,192 deep, would otherwise make tens of megabytes.
 */
const MAX_ANALYSIS_CHARS = 1 << 20;

const LONG_TEXTS = `shape texts longer than ${groupDigits(MAX_JSON_LIST)} characters are quoted by their ends`;

/**
 * JSON-safe form of an explanation. Lists and texts longer than core's MAX_JSON_LIST are cut (the
 * shape's own text with `textCut`), and arrays past {@link MAX_ANALYSIS_CHARS} left out; `cut` says
 * what was.
 */
function analysisJson(doc: HloDocument, e: ShapeExplanation, textCut: boolean): ShapeAnalysis {
  const diag = (d: LayoutDiagnostic) => ({
    code: d.code,
    severity: d.severity,
    message: readableMessage(d),
    range: toRange(doc.text, d.range),
  });
  const arrays: ArrayAnalysis[] = [];
  const cuts = new Set<string>(textCut ? [LONG_TEXTS] : []);
  let chars = 0;
  for (const a of e.arrays) {
    if (chars > MAX_ANALYSIS_CHARS) break;
    const capped = capLists(arrayJson(doc, a));
    arrays.push(capped.value);
    chars += capped.chars;
    if (capped.cut !== undefined) cuts.add(capped.cut);
    if (a.text.length > MAX_JSON_LIST) cuts.add(LONG_TEXTS);
  }
  const omitted = e.arrays.length - arrays.length + (e.omittedArrays ?? 0);
  if (omitted > 0)
    cuts.add(`${groupDigits(omitted)} more array${omitted === 1 ? '' : 's'} of this shape not analysed`);
  return {
    hasErrors: e.hasErrors,
    diagnostics: e.diagnostics.map(diag),
    arrays,
    ...(cuts.size > 0 ? { cut: [...cuts].join('; ') } : {}),
  };
}

/** The shape at `offset` (or, on an instruction's name, its result shape) and whose it is. */
function shapeAndOwner(
  st: HloStatement,
  offset: number,
): { found: StatementShape; owner?: string } | undefined {
  const target = shapeAt(st, offset);
  if (st.kind === 'instruction') {
    const own = st.shapes.find((f) => f.shape === st.shape);
    if (target) {
      const operand = st.operands.find((o) => o.shape === target.found.shape);
      return { found: target.found, owner: target.found === own ? st.name.name : operand?.name };
    }
    const onName = st.name.range.start <= offset && offset <= st.name.range.end;
    return onName && own ? { found: own, owner: st.name.name } : undefined;
  }
  if (!target) return undefined;
  if (st.kind === 'computation') {
    const param = st.parameters.find((p) => p.shape === target.found.shape);
    return { found: target.found, ...(param ? { owner: param.name } : {}) };
  }
  return { found: target.found };
}

/** xlaLayout/analyzeShape. */
export function analyzeShape(
  doc: HloDocument,
  offset: number,
  settings: Settings,
): AnalyzeShapeResult | null {
  const i = doc.statementIndexAt(offset);
  if (i < 0) return null;
  const st = doc.parse(i);
  const hit = shapeAndOwner(st, offset);
  if (!hit) return null;
  const range = hit.found.shape.range;
  const text = quoted(doc.text.getText().slice(range.start, range.end));
  const e = explainFound(doc, hit.found, settings);
  // Where XLA does not check layouts, its validator's errors are warnings, as in Problems.
  const diagnostics = relaxUncheckedLayouts(doc.text.getText(), st.range, [...e.diagnostics], st);
  const hasErrors = diagnostics.some((d) => d.severity === 'error');
  const analysis = analysisJson(doc, { ...e, diagnostics, hasErrors }, text.textCut !== undefined);
  return {
    ...text,
    range: toRange(doc.text, range),
    ...(hit.owner ? { owner: elide(hit.owner, MAX_JSON_LIST) } : {}),
    analysis,
  };
}

type RankedRow = PaddingReportRow & { readonly wasted: bigint };

/** Most wasted bytes first; equal waste, the larger expansion first. */
const worstFirst = (a: RankedRow, b: RankedRow) =>
  a.wasted === b.wasted ? b.expansion - a.expansion : a.wasted > b.wasted ? -1 : 1;

/** The `maxRows` a request asks for, clamped to what one answer holds. */
export function requestedRows(maxRows: unknown): number {
  if (typeof maxRows !== 'number' || Number.isNaN(maxRows)) return PADDING_REPORT_ROWS;
  return Math.min(PADDING_REPORT_MAX_ROWS, Math.max(1, Math.floor(maxRows)));
}

/**
 * xlaLayout/paddingReport: the `maxRows` instructions (tuple leaves summed) wasting the most bytes,
 * and totals over all of them; null once `isOpen` says the document was closed.
 */
export async function paddingReport(
  doc: HloDocument,
  analyzer: Analyzer,
  maxRows: number,
  isOpen: () => boolean,
  token: CancellationToken,
): Promise<PaddingReportResult | null> {
  const slice = new TimeSlice([doc]);
  // The worst rows so far; trimmed back to maxRows whenever it doubles, so memory stays bounded.
  let rows: RankedRow[] = [];
  let totalRows = 0;
  let totalLogical = 0n;
  let totalPhysical = 0n;
  for (const c of doc.computations()) {
    // Rows name the computation a user can find: the one a computation written in place is in.
    const name = doc.outermost(c).name ?? '';
    for (const i of doc.statementsOf(c)) {
      await slice.tick(token);
      if (!isOpen()) return null;
      if (doc.summary(i).kind !== 'instruction') continue;
      const st = doc.parse(i);
      const row =
        st.kind === 'instruction'
          ? instructionRow(doc, analyzer, st, name, instructionSource(doc, i, st))
          : undefined;
      if (!row) continue;
      totalRows++;
      totalLogical += row.logical;
      totalPhysical += row.physical;
      rows.push({ ...row.row, wasted: row.physical - row.logical });
      if (rows.length >= 2 * maxRows) rows = rows.sort(worstFirst).slice(0, maxRows);
    }
  }
  return {
    rows: rows
      .sort(worstFirst)
      .slice(0, maxRows)
      .map(({ wasted: _wasted, ...row }) => row),
    totalRows,
    totalLogicalBytes: totalLogical.toString(),
    totalPhysicalBytes: totalPhysical.toString(),
  };
}
