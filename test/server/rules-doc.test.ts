/** docs/rules.md has exactly one section per rule code, so every diagnostic link lands somewhere. */
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
});
