/**
 * docs/rules.md has exactly one section per rule code, so every diagnostic link lands somewhere, and
 * the settings schema offers a severity override for each.
 */
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../core/src/diagnostics';

describe('docs/rules.md', () => {
  it('has one "## <code>" section per rule, and no others', () => {
    const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    const headings = [...doc.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    assert.deepEqual([...headings].sort(), Object.keys(RULES).sort());
    for (const code of Object.keys(RULES)) {
      const section = doc.split(`## ${code}\n`)[1].split('\n## ')[0];
      assert.match(section, /- \*\*XLA source:\*\* .+\n- \*\*Example:\*\* .+\n- \*\*Fix:\*\* .+/, code);
    }
  });

  it('package.json offers a severity override for every rule, with its title and default', () => {
    const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
      contributes: {
        configuration: {
          properties: Record<string, { properties: Record<string, { enum: string[]; description: string }> }>;
        };
      };
    };
    const overrides = pkg.contributes.configuration.properties['xlaLayout.diagnostics.severity'].properties;
    assert.deepEqual(Object.keys(overrides).sort(), Object.keys(RULES).sort());
    for (const [code, rule] of Object.entries(RULES)) {
      assert.deepEqual(overrides[code].enum, ['error', 'warning', 'information', 'hint', 'off'], code);
      assert.equal(overrides[code].description, `${rule.title} (default: ${rule.severity})`, code);
    }
  });
});
