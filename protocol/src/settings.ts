/**
 * The `xlaLayout.*` settings, read in one place for the server and the client alike. Each setting
 * is declared once below with the bounds package.json gives it (a test holds the two equal), and
 * every value read is clamped to them: settings come from hand-edited JSON, other editors' clients
 * and untrusted workspaces, and the server must never run with a value outside its schema. A value
 * of the wrong type falls back to the default.
 */
import { DEFAULT_PADDING_THRESHOLDS, RULES, type RuleCode, type Severity } from '../../core/src';

/** What a rule's severity can be overridden to; 'off' drops the diagnostic. */
export type SeverityOverride = 'error' | 'warning' | 'information' | 'hint' | 'off';

/** A severity a diagnostic can be shown with. */
export type ShownSeverity = Exclude<SeverityOverride, 'off'>;

/**
 * The severity a diagnostic of rule `code`, `severity` by its rule, is shown with under the
 * `diagnostics.severity` overrides; undefined when its rule is turned off.
 */
export function shownSeverity(
  code: RuleCode,
  severity: Severity,
  overrides: ReadonlyMap<RuleCode, SeverityOverride>,
): ShownSeverity | undefined {
  const override = overrides.get(code);
  return override === 'off' ? undefined : (override ?? severity);
}
type InlayHintMode = 'auto' | 'on' | 'off';
type AssumedTiling = 'none' | 'tpu';

/** Configuration section; also the LanguageClient id, so `xlaLayout.trace.server` is honoured. */
export const CONFIG_SECTION = 'xlaLayout';

/** Reads the raw value of a setting by its key under {@link CONFIG_SECTION}, e.g. `hover.maxMemoryMapCells`. */
export type RawSettings = (key: string) => unknown;

/** One setting: where it lives, its schema, and how a raw value becomes the value used. */
interface Setting<T> {
  /** Key under `xlaLayout.`, as package.json's `contributes.configuration` names it. */
  readonly key: string;
  /** The package.json schema of the setting (type, default and bounds), which a test compares. */
  readonly schema: Readonly<Record<string, unknown>>;
  readonly default: T;
  /** The value used, and a sentence for each way `raw` was out of bounds (clamped or ignored). */
  read(raw: unknown): { value: T; problems: string[] };
  same(a: T, b: T): boolean;
}

function wrongType(key: string, raw: unknown, expected: string): string {
  return `xlaLayout.${key}: ${JSON.stringify(raw)} is not ${expected}; the default is used.`;
}

/** A number clamped to [minimum, maximum], rounded down when `integer`. */
function numberSetting(
  key: string,
  fallback: number,
  bounds: { minimum?: number; maximum?: number; integer?: boolean },
): Setting<number> {
  const { minimum = -Infinity, maximum = Infinity, integer = false } = bounds;
  return {
    key,
    default: fallback,
    schema: {
      type: integer ? 'integer' : 'number',
      default: fallback,
      ...(bounds.minimum !== undefined ? { minimum } : {}),
      ...(bounds.maximum !== undefined ? { maximum } : {}),
    },
    read(raw) {
      if (raw === undefined || raw === null) return { value: fallback, problems: [] };
      if (typeof raw !== 'number' || !Number.isFinite(raw))
        return { value: fallback, problems: [wrongType(key, raw, 'a finite number')] };
      const whole = integer ? Math.floor(raw) : raw;
      const value = Math.min(maximum, Math.max(minimum, whole));
      if (value === raw) return { value, problems: [] };
      const why =
        raw < minimum
          ? `below its minimum ${minimum}`
          : raw > maximum
            ? `above its maximum ${maximum}`
            : 'not whole';
      return { value, problems: [`xlaLayout.${key}: ${raw} is ${why}; ${value} is used.`] };
    },
    same: (a, b) => a === b,
  };
}

/** One of a list of strings. */
function enumSetting<T extends string>(key: string, values: readonly T[], fallback: T): Setting<T> {
  return {
    key,
    default: fallback,
    schema: { type: 'string', enum: values, default: fallback },
    read(raw) {
      if (raw === undefined || raw === null) return { value: fallback, problems: [] };
      if (typeof raw === 'string' && (values as readonly string[]).includes(raw))
        return { value: raw as T, problems: [] };
      return { value: fallback, problems: [wrongType(key, raw, `one of ${values.join(', ')}`)] };
    },
    same: (a, b) => a === b,
  };
}

/** true or false. */
function booleanSetting(key: string, fallback: boolean): Setting<boolean> {
  return {
    key,
    default: fallback,
    schema: { type: 'boolean', default: fallback },
    read(raw) {
      if (raw === undefined || raw === null) return { value: fallback, problems: [] };
      if (typeof raw === 'boolean') return { value: raw, problems: [] };
      return { value: fallback, problems: [wrongType(key, raw, 'true or false')] };
    },
    same: (a, b) => a === b,
  };
}

const SEVERITIES: readonly SeverityOverride[] = ['error', 'warning', 'information', 'hint', 'off'];

/** Rule code → severity; entries for unknown codes or severities are dropped, and said so. */
const severitySetting: Setting<ReadonlyMap<RuleCode, SeverityOverride>> = {
  key: 'diagnostics.severity',
  default: new Map(),
  schema: { type: 'object', default: {} },
  read(raw) {
    const value = new Map<RuleCode, SeverityOverride>();
    const problems: string[] = [];
    if (raw === undefined || raw === null) return { value, problems };
    if (typeof raw !== 'object' || Array.isArray(raw))
      return { value, problems: [wrongType('diagnostics.severity', raw, 'an object of rule codes')] };
    for (const [code, severity] of Object.entries(raw as Record<string, unknown>)) {
      if (!Object.hasOwn(RULES, code))
        problems.push(
          `xlaLayout.diagnostics.severity: '${code}' is not a rule code; see docs/rules.md for the list.`,
        );
      else if (!(SEVERITIES as readonly unknown[]).includes(severity))
        problems.push(
          `xlaLayout.diagnostics.severity: ${JSON.stringify(severity)} for '${code}' is not a severity.`,
        );
      else value.set(code as RuleCode, severity as SeverityOverride);
    }
    return { value, problems };
  },
  same: (a, b) => a.size === b.size && [...a].every(([code, severity]) => b.get(code) === severity),
};

/**
 * Every setting the server uses, by the name the code uses. A new setting: add it here and to
 * package.json (the test in test/server/settings.test.ts compares them); the server then reads,
 * clamps, logs and compares it without further edits.
 */
export const SETTINGS = {
  /** Warn when physical/logical bytes >= this… */
  warnExpansion: numberSetting('padding.warnExpansion', DEFAULT_PADDING_THRESHOLDS.warnExpansion, {
    minimum: 1,
  }),
  /** …and at least this many bytes are padding. */
  warnMinWastedBytes: numberSetting(
    'padding.warnMinWastedBytes',
    DEFAULT_PADDING_THRESHOLDS.warnMinWastedBytes,
    { minimum: 0 },
  ),
  severity: severitySetting,
  inlayHints: enumSetting<InlayHintMode>('inlayHints.mode', ['auto', 'on', 'off'], 'auto'),
  /** Inlay hints on scalars (rank-0 arrays) too: TPU dumps tile every scalar (4 B → 512 B). */
  inlayHintScalars: booleanSetting('inlayHints.scalars', false),
  /** Inlay hints only where physical/logical bytes reach this… */
  inlayHintMinExpansion: numberSetting('inlayHints.minExpansion', 1.25, { minimum: 1 }),
  /** …and at least this many bytes are padding: where padding changes a decision. */
  inlayHintMinWastedBytes: numberSetting('inlayHints.minWastedBytes', 1024, { minimum: 0 }),
  assumedTiling: enumSetting<AssumedTiling>('assumedTiling', ['none', 'tpu'], 'none'),
  /** Largest array (in elements) whose memory map a hover draws. */
  maxMemoryMapCells: numberSetting('hover.maxMemoryMapCells', 64, {
    minimum: 0,
    maximum: 4096,
    integer: true,
  }),
  /** Most warnings, notes and hints one file publishes. */
  maxWarnings: numberSetting('diagnostics.maxWarnings', 1000, { minimum: 0, integer: true }),
  /** Most errors one file publishes. */
  maxErrors: numberSetting('diagnostics.maxErrors', 1000, { minimum: 1, integer: true }),
  /** Most computations and instructions one outline lists (documentSymbol). */
  outlineMaxItems: numberSetting('outline.maxItems', 10000, { minimum: 0, integer: true }),
} as const;

type SettingValue<S> = S extends Setting<infer T> ? T : never;

/** The settings as the server uses them. */
export type Settings = { readonly [K in keyof typeof SETTINGS]: SettingValue<(typeof SETTINGS)[K]> };
export type SettingName = keyof Settings;

const NAMES = Object.keys(SETTINGS) as SettingName[];

/** The settings and what was wrong with the raw values (each corrected or ignored). */
export interface ReadSettings {
  readonly settings: Settings;
  readonly problems: readonly string[];
}

/** Reads every setting through `get`, clamped to its schema. */
export function readSettings(get: RawSettings): ReadSettings {
  const settings: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const name of NAMES) {
    const setting: Setting<unknown> = SETTINGS[name];
    const r = setting.read(get(setting.key));
    settings[name] = r.value;
    problems.push(...r.problems);
  }
  return { settings: settings as Settings, problems };
}

/** {@link readSettings} of the `xlaLayout` section as workspace/configuration sends it (any JSON value). */
export function readSettingsSection(section: unknown): ReadSettings {
  return readSettings((key) => {
    let v: unknown = section;
    for (const part of key.split('.')) v = isRecord(v) ? v[part] : undefined;
    return v;
  });
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export const DEFAULT_SETTINGS: Settings = readSettings(() => undefined).settings;

/** The names of the settings whose values differ between `a` and `b`. */
export function changedSettings(a: Settings, b: Settings): SettingName[] {
  return NAMES.filter((name) => !(SETTINGS[name] as Setting<unknown>).same(a[name], b[name]));
}

/** The settings as JSON (for the output channel): keys as in settings.json. */
export function settingsJson(s: Settings): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of NAMES) {
    const v: unknown = s[name];
    out[`${CONFIG_SECTION}.${SETTINGS[name].key}`] = v instanceof Map ? Object.fromEntries(v) : v;
  }
  return out;
}
