/**
 * Turns one statement into the small summary the document keeps for it: its kind, the name of a
 * computation or module header, whether it carries tiles, and its diagnostics (ranges relative to
 * the statement start). Summaries are memoised by statement text — identical text always has an
 * identical summary — so an edit or a repeated line costs a map lookup. One analyzer exists per
 * settings value; a settings change builds a new one.
 */
import type { LayoutDiagnostic, TextRange } from '../../core/src/diagnostics';
import { parseStatement, type HloStatement } from '../../core/src/hlo';
import type { ShapeNode } from '../../core/src/ast';
import { arrayLeaves, paddingWarning, ShapeFactsCache, type ShapeFacts } from './shape-facts';
import type { Settings } from './settings';

export interface StatementSummary {
  readonly kind: HloStatement['kind'];
  /** For computation and module headers: the name without `%`. */
  readonly name?: string;
  /** For computation headers: whether it is the ENTRY computation. */
  readonly entry?: boolean;
  /** Whether some shape in the statement has `T(...)` tiles. */
  readonly tiled: boolean;
  /** Diagnostics with core's default severities; ranges relative to the statement start. */
  readonly diagnostics?: readonly LayoutDiagnostic[];
}

/** Shared summaries for the common case of nothing to remember but kind and tiling. */
const PLAIN = new Map<string, StatementSummary>();
function plain(kind: HloStatement['kind'], tiled: boolean): StatementSummary {
  const key = `${kind}:${tiled}`;
  let s = PLAIN.get(key);
  if (!s) {
    s = Object.freeze({ kind, tiled });
    PLAIN.set(key, s);
  }
  return s;
}

function relative(d: LayoutDiagnostic, origin: number): LayoutDiagnostic {
  return { ...d, range: { start: d.range.start - origin, end: d.range.end - origin } };
}

export class Analyzer {
  private readonly facts: ShapeFactsCache;
  private readonly memo = new Map<string, StatementSummary>();

  constructor(
    readonly settings: Settings,
    private readonly maxMemo = 20_000,
  ) {
    this.facts = new ShapeFactsCache(settings);
  }

  /** Diagnostics and sizes of one shape found in `text` (ranges relative to the shape start). */
  shapeFacts(text: string, node: ShapeNode): ShapeFacts {
    return this.facts.get(text, node);
  }

  /** The summary of the statement at `range` of `text`. */
  summarize(text: string, range: TextRange): StatementSummary {
    const key = text.slice(range.start, range.end);
    let s = this.memo.get(key);
    if (!s) {
      s = this.compute(key);
      if (this.memo.size >= this.maxMemo) this.memo.clear();
      this.memo.set(key, s);
    }
    return s;
  }

  /** All diagnostics of one parsed statement (absolute ranges, as in `statement`). */
  diagnosticsOf(text: string, statement: HloStatement): LayoutDiagnostic[] {
    const out: LayoutDiagnostic[] = [...statement.diagnostics];
    const result = statement.kind === 'instruction' ? statement.shape : undefined;
    for (const found of statement.shapes) {
      out.push(...found.diagnostics);
      const origin = found.shape.range.start;
      const facts = this.facts.get(text, found.shape);
      for (const d of facts.diagnostics) out.push(relative(d, -origin));
      // Padding is a property of a buffer: warn where it is defined (the instruction's result),
      // not on every operand annotation that repeats its shape.
      if (found.shape === result) {
        for (const leaf of facts.leaves) {
          const w = paddingWarning(leaf, origin, this.settings);
          if (w) out.push(w);
        }
      }
    }
    return out;
  }

  private compute(text: string): StatementSummary {
    const st = parseStatement(text, { start: 0, end: text.length });
    const tiled = st.shapes.some((f) => arrayLeaves(f.shape).some((l) => (l.layout?.tiles?.tiles.length ?? 0) > 0));
    const diagnostics = this.diagnosticsOf(text, st);
    const name = st.kind === 'computation' || st.kind === 'module' ? st.name?.name : undefined;
    if (diagnostics.length === 0 && name === undefined) return plain(st.kind, tiled);
    return {
      kind: st.kind,
      tiled,
      ...(name !== undefined ? { name } : {}),
      ...(st.kind === 'computation' ? { entry: st.entry } : {}),
      ...(diagnostics.length > 0 ? { diagnostics } : {}),
    };
  }
}
