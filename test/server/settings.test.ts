/**
 * The one settings reader (protocol/src/settings.ts): its schema is package.json's, every value is
 * clamped to it, and the server uses the clamped values.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Hover, MarkupContent } from 'vscode-languageserver';
import {
  DEFAULT_SETTINGS,
  SETTINGS,
  changedSettings,
  readSettingsSection,
  settingsJson,
} from '../../protocol/src/settings';
import { positionOf, TestClient } from './harness';

interface Manifest {
  contributes: { configuration: { properties: Record<string, Record<string, unknown>> } };
  capabilities: { untrustedWorkspaces: { supported: unknown; restrictedConfigurations?: string[] } };
}
const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as Manifest;
const declared = pkg.contributes.configuration.properties;
/** Read by vscode-languageclient itself, never by the server. */
const CLIENT_ONLY = ['xlaLayout.trace.server'];

describe('settings: one reader, clamped to the schema', () => {
  it("declares every setting with package.json's type, default and bounds", () => {
    const ours = Object.values(SETTINGS).map((s) => `xlaLayout.${s.key}`);
    assert.deepEqual(
      [...ours, ...CLIENT_ONLY].sort(),
      Object.keys(declared).sort(),
      'every xlaLayout setting in package.json is read here',
    );
    for (const s of Object.values(SETTINGS)) {
      const schema = declared[`xlaLayout.${s.key}`];
      const bounds = Object.fromEntries(Object.keys(s.schema).map((k) => [k, schema[k]]));
      assert.deepEqual(bounds, s.schema, s.key);
      for (const k of ['minimum', 'maximum', 'enum'])
        assert.equal(k in s.schema, k in schema, `${s.key}: ${k} declared on one side only`);
    }
  });

  it('clamps numbers to their bounds and rounds integers down', () => {
    const { settings, problems } = readSettingsSection({
      padding: { warnExpansion: 0.5, warnMinWastedBytes: -3 },
      hover: { maxMemoryMapCells: 1e8 },
      outline: { maxItems: 12.7 },
    });
    assert.deepEqual(
      [
        settings.warnExpansion,
        settings.warnMinWastedBytes,
        settings.maxMemoryMapCells,
        settings.outlineMaxItems,
      ],
      [1, 0, 4096, 12],
    );
    assert.deepEqual(problems, [
      'xlaLayout.padding.warnExpansion: 0.5 is below its minimum 1; 1 is used.',
      'xlaLayout.padding.warnMinWastedBytes: -3 is below its minimum 0; 0 is used.',
      'xlaLayout.hover.maxMemoryMapCells: 100000000 is above its maximum 4096; 4096 is used.',
      'xlaLayout.outline.maxItems: 12.7 is not whole; 12 is used.',
    ]);
  });

  it('falls back to the default for a value of the wrong type, and drops unknown rule codes', () => {
    const { settings, problems } = readSettingsSection({
      padding: { warnExpansion: 'big', warnMinWastedBytes: Infinity },
      inlayHints: { mode: 'sometimes' },
      hover: 7,
      diagnostics: { severity: { 'tile-negative': 'warning', 'tile-negativ': 'off', 'tile-empty': 'loud' } },
    });
    assert.equal(settings.warnExpansion, DEFAULT_SETTINGS.warnExpansion);
    assert.equal(settings.warnMinWastedBytes, DEFAULT_SETTINGS.warnMinWastedBytes);
    assert.equal(settings.inlayHints, 'auto');
    assert.equal(settings.maxMemoryMapCells, 64);
    assert.deepEqual([...settings.severity], [['tile-negative', 'warning']]);
    assert.equal(problems.length, 5, problems.join('\n'));
    assert.ok(problems.some((p) => p.includes("'tile-negativ' is not a rule code")));
  });

  it('reads nothing at all (a client without settings) as the defaults', () => {
    for (const raw of [undefined, null, 3, [], {}]) {
      const { settings, problems } = readSettingsSection(raw);
      assert.deepEqual(changedSettings(settings, DEFAULT_SETTINGS), [], JSON.stringify(raw));
      assert.deepEqual(problems, []);
    }
  });

  it('compares settings generically, severity maps by content', () => {
    const a = readSettingsSection({ diagnostics: { severity: { 'tile-empty': 'off' } } }).settings;
    const b = readSettingsSection({ diagnostics: { severity: { 'tile-empty': 'off' } } }).settings;
    assert.deepEqual(changedSettings(a, b), []);
    const c = readSettingsSection({ assumedTiling: 'tpu', outline: { maxItems: 3 } }).settings;
    assert.deepEqual(changedSettings(a, c), ['severity', 'assumedTiling', 'outlineMaxItems']);
    assert.deepEqual(settingsJson(a)['xlaLayout.diagnostics.severity'], { 'tile-empty': 'off' });
  });

  it('marks the settings that cost work per request as restricted in untrusted workspaces', () => {
    const trust = pkg.capabilities.untrustedWorkspaces;
    assert.equal(trust.supported, 'limited');
    const restricted = trust.restrictedConfigurations ?? [];
    for (const key of restricted) assert.ok(key in declared, `${key} is not a setting`);
    assert.deepEqual(restricted.sort(), [
      'xlaLayout.diagnostics.maxErrors',
      'xlaLayout.diagnostics.maxWarnings',
      'xlaLayout.hover.maxMemoryMapCells',
      'xlaLayout.outline.maxItems',
      'xlaLayout.trace.server',
    ]);
  });
});

describe('server: settings out of bounds', () => {
  it('draws no memory map larger than hover.maxMemoryMapCells allows, whatever the client sends', async () => {
    const { client } = await TestClient.start({ hover: { maxMemoryMapCells: 1e8 } });
    const text = [
      'HloModule m',
      '',
      'ENTRY %e () -> (f32[64,64], f32[64,65]) {',
      '  %at = f32[64,64]{0,1} constant({...})',
      '  %over = f32[64,65]{0,1} constant({...})',
      '  ROOT %t = (f32[64,64]{0,1}, f32[64,65]{0,1}) tuple(%at, %over)',
      '}',
      '',
    ].join('\n');
    const uri = 'file:///w/cells.hlo';
    await client.open(uri, text);
    const hover = async (needle: string) => {
      const h = await client.request<Hover | null>('textDocument/hover', {
        textDocument: { uri },
        position: positionOf(text, needle, 2),
      });
      assert.ok(h, needle);
      return (h.contents as MarkupContent).value;
    };
    // Transposed, so the map tells something. 4,096 cells is the schema's maximum: drawn; 4,160
    // would be within the 1e8 asked for: not drawn.
    assert.match(await hover('f32[64,64]{0,1} constant'), /\*\*Memory map\*\*/);
    assert.doesNotMatch(await hover('f32[64,65]{0,1} constant'), /\*\*Memory map\*\*/);
    await client.dispose();
  });
});
