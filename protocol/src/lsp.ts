/**
 * Custom LSP requests and notifications between the XLA Layout Lens client and server, each defined
 * once as a typed `RequestType`/`NotificationType` and imported by both ends, so the compiler ties
 * a request's params and result on the side that sends it and on the side that answers it.
 * Everything here is JSON: exact integers travel as decimal strings.
 */
import { NotificationType, RequestType } from 'vscode-jsonrpc';

/** A position as LSP has it: 0-based line and UTF-16 character. */
export interface Position {
  readonly line: number;
  readonly character: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

/** Client → server: the full analysis of the shape at a position (null when there is none). */
export const AnalyzeShapeRequest = new RequestType<AnalyzeShapeParams, AnalyzeShapeResult | null, void>(
  'xlaLayout/analyzeShape',
);
export interface AnalyzeShapeParams {
  readonly textDocument: { readonly uri: string };
  readonly position: Position;
}
export interface AnalyzeShapeResult {
  /**
   * The shape as written in the document; one longer than 1,024 characters is quoted by its ends
   * around " … ", and `textCut` says so.
   */
  readonly text: string;
  readonly range: Range;
  /** Present when `text` was cut: the whole text is this long, at `range` in the document. */
  readonly textCut?: TextCut;
  /** Name of the instruction or parameter whose shape this is, if any. */
  readonly owner?: string;
  /** The full analysis of the shape (every array leaf), as the hover and the CLI's `explain` show it. */
  readonly analysis: ShapeAnalysis;
}

/** The length of a text an answer quotes only by its ends; the answer's range locates it whole. */
export interface TextCut {
  readonly length: number;
}

/** A core diagnostic placed in the document. */
export interface ShapeDiagnostic {
  /** Stable rule code (core/src/diagnostics.ts RULES; documented in docs/rules.md). */
  readonly code: string;
  readonly severity: 'error' | 'warning' | 'information';
  readonly message: string;
  readonly range: Range;
}

/** An exact fraction with its double approximation; numerator/denominator are decimal strings. */
export interface JsonRatio {
  readonly numerator: string;
  readonly denominator: string;
  readonly value: number;
}

/** One tile level as pad → reshape → transpose (spec §4.1); shapes are major→minor decimal strings. */
export interface TilingStepJson {
  readonly level: number;
  /** The tile as written, e.g. "(8,128)". */
  readonly tile: string;
  readonly input: readonly string[];
  /** Leading size-1 dims added because the tile has more dims than `input`. */
  readonly vectorPadding: number;
  /** After merging `*` dims into the next more-minor one. */
  readonly combined: readonly string[];
  readonly padded: readonly string[];
  readonly reshaped: readonly string[];
  readonly output: readonly string[];
}

/** Sizes of one array; all byte and element counts are exact decimal strings. */
export interface SizesJson {
  readonly logicalElements: string;
  /** XLA ByteSizeOf. */
  readonly logicalBytes: string;
  /** Element slots under every tile level, rounded up for L(n). */
  readonly physicalElements: string;
  readonly physicalBytes: string;
  /** XLA ArraySize (first tile only); null where XLA's value is meaningless (`*` in the first tile). */
  readonly arraySizeBytes: string | null;
  readonly elementSizeBits: number;
  /** physical / logical bytes; absent for empty arrays. */
  readonly expansion?: JsonRatio;
  /** (physical − logical) / physical; absent when 0 bytes. */
  readonly overhead?: JsonRatio;
}

/** How much one logical dimension is padded and by which tile entries. */
export interface DimensionPaddingJson {
  readonly dim: number;
  readonly size: string;
  /** 0 = major-most. */
  readonly physicalPosition: number;
  readonly isMinorMost: boolean;
  readonly factor: JsonRatio;
  readonly causes: readonly {
    readonly level: number;
    readonly tileEntry: number;
    readonly tileSize: string;
    readonly from: string;
    readonly to: string;
    readonly factor: JsonRatio;
  }[];
}

/** The analysis of one array (a whole array shape or one leaf of a tuple). */
export interface ArrayAnalysis {
  /** Tuple indices from the root; [] for a top-level array. */
  readonly path: readonly number[];
  /** The array as written; quoted by its ends past 1,024 characters, as `textCut` then says. */
  readonly text: string;
  readonly range: Range;
  readonly textCut?: TextCut;
  readonly elementType: string;
  /** Why no layout math was done (invalid shape, token/opaque, …). */
  readonly error?: string;
  readonly dims: readonly {
    readonly dim: number;
    readonly size: string;
    readonly dynamic: 'static' | 'bounded' | 'unbounded';
    readonly physicalPosition: number;
  }[];
  /** Logical dims in memory order, major→minor. */
  readonly physicalOrder: readonly number[];
  readonly physicalDims: readonly string[];
  readonly tiles: readonly string[];
  /** Set when the layout had no tiles and the assumed TPU tiling (setting) was applied: the rule. */
  readonly assumed?: string;
  readonly steps: readonly TilingStepJson[];
  /** Final expanded shape, whose row-major order is memory order. */
  readonly expandedShape: readonly string[];
  readonly sizes?: SizesJson;
  readonly padding: readonly DimensionPaddingJson[];
  /** A computed layout change that saves memory, when there is one. */
  readonly fix?: {
    readonly kind: 'reorder' | 'merge';
    readonly description: string;
    readonly physicalBytes: string;
    readonly savedBytes: string;
  };
  readonly memorySpace: { readonly value: number; readonly meaning: string };
}

export interface ShapeAnalysis {
  readonly hasErrors: boolean;
  readonly diagnostics: readonly ShapeDiagnostic[];
  /** The first arrays of the shape (a tuple's leaves in order), as many as one answer holds. */
  readonly arrays: readonly ArrayAnalysis[];
  /**
   * Present when the answer was cut to stay small: which lists hold only their first entries
   * (a 500,000-dimension shape lists its first dims) and how many arrays were left out.
   */
  readonly cut?: string;
}

/** Client → server: every buffer in the document with logical and physical bytes, worst first. */
export const PaddingReportRequest = new RequestType<PaddingReportParams, PaddingReportResult | null, void>(
  'xlaLayout/paddingReport',
);
interface PaddingReportParams {
  readonly textDocument: { readonly uri: string };
  /**
   * Most rows to answer, those wasting the most bytes (default {@link PADDING_REPORT_ROWS}; a
   * number out of 1..{@link PADDING_REPORT_MAX_ROWS} is clamped to it).
   */
  readonly maxRows?: number;
}
/** Rows of the padding report when the request does not say how many. */
export const PADDING_REPORT_ROWS = 100;
/** Most rows one padding report answers: a dump has hundreds of thousands of instructions. */
export const PADDING_REPORT_MAX_ROWS = 1024;
export interface PaddingReportRow {
  /** Instruction or parameter name. */
  readonly name: string;
  readonly computation: string;
  readonly shape: string;
  readonly range: Range;
  /** XLA ByteSizeOf summed over array leaves, decimal. */
  readonly logicalBytes: string;
  /** Bytes under every tile level (rounded for L(n)), decimal. */
  readonly physicalBytes: string;
  /** physical / logical; 1 when nothing pads; 0 for empty arrays. */
  readonly expansion: number;
  /** Where the instruction comes from, by its metadata: file name and line (`train.py:12`). */
  readonly source?: string;
}
/** The report, or null when the document is not open (or was closed while the report ran). */
export interface PaddingReportResult {
  /** The instructions wasting the most bytes, worst first, at most `maxRows`. */
  readonly rows: readonly PaddingReportRow[];
  /** Instructions with a shape in the document, all counted in the totals (rows.length if none was left out). */
  readonly totalRows: number;
  /** Over every instruction, not only the rows. */
  readonly totalLogicalBytes: string;
  readonly totalPhysicalBytes: string;
}

/**
 * Server → client notification: analysis of a large document started, got on (about every 0.1 s),
 * or finished (status item).
 */
export const AnalysisProgressNotification = new NotificationType<AnalysisProgressParams>(
  'xlaLayout/analysisProgress',
);
export interface AnalysisProgressParams {
  readonly uri: string;
  readonly state: 'started' | 'progress' | 'finished';
  /** Document size in characters. */
  readonly size: number;
  /** With `progress`: the share of the document's statements analysed so far, above 0 and below 1. */
  readonly done?: number;
}

/**
 * Server → client notification after an outline request: how much of the document's outline was
 * listed. Sent when the outline was cut at `xlaLayout.outline.maxItems` (`shown` < `total`), and
 * once more when a document whose outline was cut gets a whole one again (`shown` = `total`).
 */
export const OutlineLimitNotification = new NotificationType<OutlineLimitParams>('xlaLayout/outlineLimit');
export interface OutlineLimitParams {
  readonly uri: string;
  /** Computations and instructions listed. */
  readonly shown: number;
  /** Computations and instruction statements in the document. */
  readonly total: number;
}

/** What the client tells the server in `initialize`; every field is optional. */
export interface InitializationOptions {
  /** URI of docs/rules.md as the client can open it; diagnostics link to its sections. */
  readonly rulesDocUri?: string;
}

/**
 * textDocument/hover as VS Code's client sends it, with how much a shape hover should say: 0 is the
 * answer and its reasons, {@link HOVER_MAX_VERBOSITY} everything. Editors that send no `verbosity`
 * get everything (they have no way to ask for more).
 */
export interface HoverVerbosityParams {
  readonly textDocument: { readonly uri: string };
  readonly position: Position;
  readonly verbosity?: number;
}
export const HOVER_MAX_VERBOSITY = 1;

/** A hover result that depends on the verbosity: the level it shows and the highest (for VS Code's `+`/`-`). */
export interface HoverVerbosity {
  readonly level: number;
  readonly max: number;
}

/** The verbosity a request asks for: an integer 0..max, or undefined (everything) for anything else. */
export function requestedVerbosity(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= HOVER_MAX_VERBOSITY
    ? value
    : undefined;
}

/**
 * The client command a hover's source link runs: opens `line` (0-based) of the source file `uri`
 * recorded in an instruction's metadata, or of the workspace file standing for it. `dump`, the
 * document the link is in, makes its folder one where a recorded file may be opened.
 */
export const OpenSourceCommand = 'xlaLayout.openSource';
export interface OpenSourceArgs {
  readonly uri: string;
  readonly line: number;
  readonly dump?: string;
}

/**
 * Client → server: the instructions of every open HLO document whose metadata names the source
 * file `path` (this machine's path; the dump's may differ before its tail: those sharing the
 * longest tail count) and, when given, its 1-based `line`. In text order, at most `limit` (500).
 */
export const SourceInstructionsRequest = new RequestType<
  SourceInstructionsParams,
  SourceInstructionsResult | null,
  void
>('xlaLayout/sourceInstructions');
export interface SourceInstructionsParams {
  readonly path: string;
  readonly line?: number;
}
export interface SourceInstruction extends PaddingReportRow {
  readonly uri: string;
  /** The instruction's source_line, 1-based. */
  readonly sourceLine?: number;
  readonly opName?: string;
}
export interface SourceInstructionsResult {
  readonly items: readonly SourceInstruction[];
  /** More instructions matched than `items` holds. */
  readonly truncated: boolean;
  /** How many HLO documents were searched (0: none is open). */
  readonly documents: number;
}
