/**
 * The `xlaLayout` settings as the server uses them, read through workspace/configuration and
 * checked field by field: a client may send nothing (Neovim without settings), a partial object,
 * or values of the wrong type, and each bad field falls back to its default.
 */
import { RULES, type RuleCode } from '../../core/src';

/** What a rule's severity can be overridden to; 'off' drops the diagnostic. */
export type SeverityOverride = 'error' | 'warning' | 'information' | 'hint' | 'off';
export type InlayHintMode = 'auto' | 'on' | 'off';
export type AssumedTiling = 'none' | 'tpu';

export interface Settings {
  /** Warn when physical/logical bytes >= this… */
  readonly warnExpansion: number;
  /** …and at least this many bytes are padding. */
  readonly warnMinWastedBytes: number;
  readonly severity: ReadonlyMap<RuleCode, SeverityOverride>;
  readonly inlayHints: InlayHintMode;
  readonly assumedTiling: AssumedTiling;
  readonly maxMemoryMapCells: number;
  /** Most computations and instructions one outline lists (documentSymbol). */
  readonly outlineMaxItems: number;
}

export const DEFAULT_SETTINGS: Settings = {
  warnExpansion: 4,
  warnMinWastedBytes: 1048576,
  severity: new Map(),
  inlayHints: 'auto',
  assumedTiling: 'none',
  maxMemoryMapCells: 64,
  outlineMaxItems: 10000,
};

const SEVERITIES: readonly SeverityOverride[] = ['error', 'warning', 'information', 'hint', 'off'];

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function finiteAtLeast(v: unknown, min: number, fallback: number): number {
  return typeof v === 'number' && Number.isFinite(v) && v >= min ? v : fallback;
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], fallback: T): T {
  return typeof v === 'string' && (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

/** Settings from the raw `xlaLayout` section (any JSON value; unknown keys are ignored). */
export function readSettings(raw: unknown): Settings {
  if (!isRecord(raw)) return DEFAULT_SETTINGS;
  const padding = isRecord(raw.padding) ? raw.padding : {};
  const diagnostics = isRecord(raw.diagnostics) ? raw.diagnostics : {};
  const inlay = isRecord(raw.inlayHints) ? raw.inlayHints : {};
  const hover = isRecord(raw.hover) ? raw.hover : {};
  const outline = isRecord(raw.outline) ? raw.outline : {};
  const severity = new Map<RuleCode, SeverityOverride>();
  if (isRecord(diagnostics.severity)) {
    for (const [code, value] of Object.entries(diagnostics.severity)) {
      if (Object.hasOwn(RULES, code) && (SEVERITIES as readonly unknown[]).includes(value)) {
        severity.set(code as RuleCode, value as SeverityOverride);
      }
    }
  }
  return {
    warnExpansion: finiteAtLeast(padding.warnExpansion, 1, DEFAULT_SETTINGS.warnExpansion),
    warnMinWastedBytes: finiteAtLeast(padding.warnMinWastedBytes, 0, DEFAULT_SETTINGS.warnMinWastedBytes),
    severity,
    inlayHints: oneOf(inlay.mode, ['auto', 'on', 'off'], DEFAULT_SETTINGS.inlayHints),
    assumedTiling: oneOf(raw.assumedTiling, ['none', 'tpu'], DEFAULT_SETTINGS.assumedTiling),
    maxMemoryMapCells: Math.floor(
      finiteAtLeast(hover.maxMemoryMapCells, 0, DEFAULT_SETTINGS.maxMemoryMapCells),
    ),
    outlineMaxItems: Math.floor(finiteAtLeast(outline.maxItems, 0, DEFAULT_SETTINGS.outlineMaxItems)),
  };
}
