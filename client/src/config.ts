/**
 * The extension's settings, typed, in one place. The language server reads the same section through
 * workspace/configuration; the client only needs `trace.server` (which vscode-languageclient reads
 * itself because the client id is the section name) and uses the rest for client-side features.
 */
import * as vscode from 'vscode';
import { RULES } from '../../core/src';

/** Configuration section; also the LanguageClient id, so `xlaLayout.trace.server` is honoured. */
export const CONFIG_SECTION = 'xlaLayout';

export type Severity = 'error' | 'warning' | 'information' | 'hint' | 'off';
export type InlayHintsMode = 'auto' | 'on' | 'off';
export type AssumedTiling = 'none' | 'tpu';
export type TraceLevel = 'off' | 'messages' | 'verbose';

/** Every `xlaLayout.*` setting with the type and default package.json declares. */
export interface XlaLayoutConfig {
  readonly paddingWarnExpansion: number;
  readonly paddingWarnMinWastedBytes: number;
  readonly diagnosticsSeverity: Readonly<Record<string, Severity>>;
  readonly inlayHintsMode: InlayHintsMode;
  readonly assumedTiling: AssumedTiling;
  readonly hoverMaxMemoryMapCells: number;
  readonly outlineMaxItems: number;
  readonly traceServer: TraceLevel;
}

const SEVERITIES: readonly Severity[] = ['error', 'warning', 'information', 'hint', 'off'];

function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value)
    ? (value as T)
    : fallback;
}

function finiteNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Keeps only entries whose value is a known severity: settings.json is hand-edited. */
function severityMap(value: unknown): Record<string, Severity> {
  const out: Record<string, Severity> = {};
  if (value === null || typeof value !== 'object') return out;
  for (const [code, sev] of Object.entries(value as Record<string, unknown>)) {
    if (typeof sev === 'string' && (SEVERITIES as readonly string[]).includes(sev))
      out[code] = sev as Severity;
  }
  return out;
}

/**
 * Reads the settings for `scope` (a document URI for resource-scoped values; by default, null: the
 * values of no particular resource, which VS Code otherwise warns about), falling back to defaults.
 */
export function readConfig(scope: vscode.ConfigurationScope | null = null): XlaLayoutConfig {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return {
    paddingWarnExpansion: finiteNumber(c.get('padding.warnExpansion'), 4),
    paddingWarnMinWastedBytes: finiteNumber(c.get('padding.warnMinWastedBytes'), 1048576),
    diagnosticsSeverity: severityMap(c.get('diagnostics.severity')),
    inlayHintsMode: oneOf<InlayHintsMode>(c.get('inlayHints.mode'), ['auto', 'on', 'off'], 'auto'),
    assumedTiling: oneOf<AssumedTiling>(c.get('assumedTiling'), ['none', 'tpu'], 'none'),
    hoverMaxMemoryMapCells: finiteNumber(c.get('hover.maxMemoryMapCells'), 64),
    outlineMaxItems: finiteNumber(c.get('outline.maxItems'), 10000),
    traceServer: oneOf<TraceLevel>(c.get('trace.server'), ['off', 'messages', 'verbose'], 'off'),
  };
}

/**
 * Problems in the user's settings that VS Code's schema check does not stop in settings.json:
 * severity overrides for rule codes that do not exist (typos silently do nothing otherwise).
 */
export function settingsProblems(config: XlaLayoutConfig): string[] {
  return Object.keys(config.diagnosticsSeverity)
    .filter((code) => !Object.hasOwn(RULES, code))
    .map(
      (code) =>
        `xlaLayout.diagnostics.severity: '${code}' is not a rule code; see docs/rules.md for the list.`,
    );
}
