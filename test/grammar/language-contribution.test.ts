/**
 * The `hlo` language contribution in package.json and language-configuration.json: which file names
 * open as HLO (matched with a real glob implementation, case-insensitively as VS Code does), the
 * first-line pattern, and the editor behaviour rules (word pattern, folding, indentation).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { minimatch } from 'minimatch';
import { GRAMMAR_PATH } from './tokenize';

const ROOT = path.resolve(__dirname, '..', '..');

interface LanguageContribution {
  id: string;
  aliases: string[];
  extensions: string[];
  filenamePatterns: string[];
  firstLine: string;
  configuration: string;
}
interface GrammarContribution {
  language: string;
  scopeName: string;
  path: string;
}
interface LanguageConfiguration {
  comments: { lineComment: string; blockComment: [string, string] };
  brackets: [string, string][];
  autoClosingPairs: { open: string; close: string }[];
  surroundingPairs: [string, string][];
  folding: { markers: { start: string; end: string } };
  wordPattern: string;
  indentationRules: { increaseIndentPattern: string; decreaseIndentPattern: string };
}

const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { languages: LanguageContribution[]; grammars: GrammarContribution[] };
};
const hlo = pkg.contributes.languages.find((l) => l.id === 'hlo')!;
const config = JSON.parse(
  fs.readFileSync(path.join(ROOT, hlo.configuration), 'utf8'),
) as LanguageConfiguration;

/** Whether VS Code would open `name` as HLO: by extension, else by a pattern on the base name. */
function opensAsHlo(name: string): boolean {
  const lower = name.toLowerCase();
  return (
    hlo.extensions.some((e) => lower.endsWith(e)) ||
    hlo.filenamePatterns.some((p) => minimatch(name, p, { nocase: true, dot: true }))
  );
}

describe('language contribution: hlo', () => {
  it('declares the language with its aliases, configuration and grammar', () => {
    assert.deepEqual(hlo.aliases, ['HLO', 'XLA HLO']);
    assert.deepEqual(hlo.extensions, ['.hlo', '.hlotxt']);
    const grammar = pkg.contributes.grammars.find((g) => g.language === 'hlo')!;
    assert.equal(grammar.scopeName, 'source.hlo');
    assert.equal(path.resolve(ROOT, grammar.path), GRAMMAR_PATH);
    const raw = JSON.parse(fs.readFileSync(GRAMMAR_PATH, 'utf8')) as { scopeName: string };
    assert.equal(raw.scopeName, 'source.hlo');
  });

  const mustMatch = [
    'model.hlo',
    'fusion.HLO',
    'test.hlotxt',
    'module_0001.before_optimizations.txt',
    'module_0001.jit_train_step.before_optimizations.txt',
    'module_0001.jit_train_step.after_optimizations.txt',
    'module_0042.pjit__wrapped_fun.after_optimizations.txt',
    '1712345678901234.module_0001.jit_f.after_optimizations.txt',
    '1712345678901234.module_0001.jit_f.before_optimizations.txt',
    'module_0004.jit_matmul.sm_8.0_gpu_after_optimizations.txt',
    'module_0001.jit_f.0003.spmd-partitioning.after_sharding-propagation.before_spmd-partitioner.txt',
    'module_0001.0000.simplification.after_pipeline-start.before_algsimp.txt',
    '1712345678901234.module_0001.jit_f.0012.fusion.after_priority-fusion.before_multi_output_fusion.txt',
  ];
  const mustNotMatch = [
    'module_0001.jit_train_step.after_optimizations-buffer-assignment.txt',
    'module_0001.jit_train_step.after_optimizations-memory-usage-report.txt',
    'module_0004.jit_matmul.sm_8.0_gpu_after_optimizations-buffer-assignment.txt',
    'module_0004.jit_matmul.sm_8.0_gpu_after_optimizations-memory-usage-report.txt',
    '1712345678901234.module_0001.jit_f.after_optimizations-buffer-assignment.txt',
    '1712345678901234.module_0001.jit_f.after_optimizations-memory-usage-report.txt',
    'module_0001.jit_f.after_optimizations.html',
    'module_0001.jit_f.after_optimizations.dot',
    'module_0001.jit_f.ir-no-opt.ll',
    'module_0001.jit_f.thunk_sequence.txt',
    'module_0001.jit_f.autotune_results.pbtxt',
    'module_0001.jit_f.before_optimizations.hlo.pb',
    'after_optimizations.txt',
    'notes.txt',
    'hlo.txt',
    'model.hlo.txt',
  ];
  for (const name of mustMatch) it(`opens ${name} as HLO`, () => assert.ok(opensAsHlo(name)));
  for (const name of mustNotMatch) it(`does not open ${name} as HLO`, () => assert.ok(!opensAsHlo(name)));

  it('recognises a module by its first line', () => {
    const firstLine = new RegExp(hlo.firstLine);
    for (const line of [
      'HloModule jit_f, entry_computation_layout={()->f32[]}',
      '  HloModule m',
      'HloModule m',
    ])
      assert.ok(firstLine.test(line), line);
    for (const line of ['// HloModule m', 'HloModules m', 'ENTRY %main {', ''])
      assert.ok(!firstLine.test(line), line);
  });
});

describe('language configuration: hlo', () => {
  it('declares comments, brackets, auto-closing and surrounding pairs including quotes', () => {
    assert.deepEqual(config.comments, { lineComment: '//', blockComment: ['/*', '*/'] });
    assert.deepEqual(config.brackets, [
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
    ]);
    assert.deepEqual(
      config.autoClosingPairs.map((p) => p.open + p.close),
      ['{}', '[]', '()', '""', '/* */'],
    );
    assert.deepEqual(config.surroundingPairs, [
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
      ['"', '"'],
    ]);
  });

  /** The word at `column` as VS Code finds it: the word-pattern match that contains the column. */
  function wordAt(line: string, column: number): string | undefined {
    for (const m of line.matchAll(new RegExp(config.wordPattern, 'g'))) {
      if (m.index <= column && column <= m.index + m[0].length) return m[0];
    }
    return undefined;
  }

  it('keeps instruction names, computation references and element types whole as words', () => {
    const line =
      '  %get-tuple-element.1-foo = f32[10]{0:T(128)} get-tuple-element(%p0.1), index=1, calls=%fused_computation.434.clone';
    assert.equal(wordAt(line, line.indexOf('tuple-element.1')), '%get-tuple-element.1-foo');
    assert.equal(wordAt(line, line.indexOf('f32') + 1), 'f32');
    assert.equal(wordAt(line, line.indexOf('128') + 1), '128');
    assert.equal(wordAt(line, line.indexOf('p0.1')), '%p0.1');
    assert.equal(wordAt(line, line.indexOf('434')), '%fused_computation.434.clone');
  });

  it('folds computations from a `{` ending a line to a line starting with `}`', () => {
    const start = new RegExp(config.folding.markers.start);
    const end = new RegExp(config.folding.markers.end);
    assert.ok(start.test('ENTRY %main.6 (Arg_0.1: f32[2,3,4]) -> f32[2,3,4] {'));
    assert.ok(start.test('%fused_computation.434.clone {'));
    assert.ok(!start.test('  %p = f32[2]{0} parameter(0), dimensions={0}'));
    assert.ok(end.test('}'));
    assert.ok(end.test('}, execution_thread="host"'));
    assert.ok(!end.test('  ROOT %t = (f32[2]{0}) tuple(%p)'));
  });

  it('indents after an opening brace or parenthesis at line end and outdents at a closing one', () => {
    const increase = new RegExp(config.indentationRules.increaseIndentPattern);
    const decrease = new RegExp(config.indentationRules.decreaseIndentPattern);
    assert.ok(increase.test('ENTRY main {'));
    assert.ok(increase.test('HloModule entry, entry_computation_layout={('));
    assert.ok(!increase.test('  %p = f32[2]{0} parameter(0)'));
    assert.ok(decrease.test('  }'));
    assert.ok(decrease.test(')->f32[2,3,4]{2,0,1:T(2,128)}}'));
    assert.ok(!decrease.test('  %p = f32[2]{0} parameter(0)'));
  });
});
