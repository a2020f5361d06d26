/**
 * Name checks as XLA's one-pass parser makes them: each rule with the parser's message on the exact
 * characters, no diagnostic on the corpus, and property tests whose oracle is the order of
 * definitions in a shuffled module.
 */
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { readableMessage, type LayoutDiagnostic } from '../../core/src/diagnostics';
import { checkNames, parseHloText } from '../../core/src/hlo';
import { CORPUS_HLO_DIR, SHARED_CORPUS } from '../support/corpus';
import { inlineBody, inlineModule } from '../support/inline-hlo';

const EXAMPLES = join(__dirname, '..', '..', 'examples');

/** [code, the characters it is on, message] of each name diagnostic of `text`, in text order. */
function names(text: string): [string, string, string][] {
  return checkNames(parseHloText(text), text)
    .sort((a, b) => a.range.start - b.range.start)
    .map((d) => [d.code, text.slice(d.range.start, d.range.end), d.message]);
}

/** As {@link names}, with the message as people read it: plain words, then XLA's. */
function readNames(text: string): [string, string, string][] {
  return checkNames(parseHloText(text), text)
    .sort((a, b) => a.range.start - b.range.start)
    .map((d) => [d.code, text.slice(d.range.start, d.range.end), readableMessage(d)]);
}

function related(text: string, d: LayoutDiagnostic): [string, number, string][] {
  return (d.related ?? []).map((r) => [text.slice(r.range.start, r.range.end), r.range.start, r.message]);
}

/** `line:column message` (1-based) of each name and structure diagnostic of `text`. */
function namePlaces(text: string): string[] {
  return checkNames(parseHloText(text), text).map((d) => {
    const before = text.slice(0, d.range.start);
    return `${before.split('\n').length}:${d.range.start - before.lastIndexOf('\n')} ${d.message}`;
  });
}

describe('core: names as XLA parses them', () => {
  it('refuses a second module, text after the last computation and a computation without instructions', () => {
    const module = 'HloModule m\n\nENTRY %e {\n  ROOT %r = f32[] parameter(0)\n}\n';
    assert.deepEqual(names(`${module}\n${module}`), [['outside-computation', 'HloModule', 'expects name']]);
    assert.deepEqual(names(`${module}// -----\n${module}`), []);
    assert.deepEqual(names(`${module}foo bar\n`), [
      ['outside-computation', 'b', "expects '{' at the beginning of instruction list."],
    ]);
    assert.deepEqual(names(`${module}1\n`), [['outside-computation', '1', 'expects name']]);
    assert.deepEqual(names('HloModule m\n\nENTRY %e {\n\n}\n'), [
      ['computation-unclosed', '}', 'expects name'],
    ]);
  });

  it('reads a computation written in place on one line as no computation name', () => {
    const text = [
      'ENTRY %e (a: f32[4]) -> f32[4] {',
      '  %a = f32[4]{0} parameter(0)',
      '  %b = f32[4]{0} call(%a), to_apply={ROOT %p = f32[4]{0} parameter(0)}',
      '  ROOT %c = f32[4]{0} call(%b), to_apply={ %q = f32[4]{0} parameter(0) ROOT %n = f32[4]{0} negate(%q) }',
      '}',
    ].join('\n');
    assert.deepEqual(names(text), []);
  });

  it('reports an operand defined nowhere, further down, by the instruction itself, or only in the signature', () => {
    const text = [
      'ENTRY %e (p: f32[]) -> f32[] {',
      '  %a = f32[] parameter(0)',
      '  %b = f32[] add(%a, %bb)',
      '  %c = f32[] add(%b, %d)',
      '  %d = f32[] negate(%d)',
      '  ROOT %r = f32[] add(%c, %p)',
      '}',
    ].join('\n');
    assert.deepEqual(readNames(text), [
      [
        'instruction-undefined',
        'bb',
        '`%bb` is not defined in this computation — XLA: instruction does not exist: bb',
      ],
      [
        'instruction-undefined',
        'd',
        "`%d` is defined further down: XLA's parser knows only the instructions above a use, so move its definition up — XLA: instruction does not exist: d",
      ],
      [
        'instruction-undefined',
        'd',
        '`%d` names the instruction itself: an instruction cannot be its own operand — XLA: instruction does not exist: d',
      ],
      [
        'instruction-undefined',
        'p',
        "`%p` is named only in the computation's signature, which XLA reads for its shape: define it with an instruction, `%p = f32[] parameter(0)` — XLA: instruction does not exist: p",
      ],
    ]);
  });

  it('suggests the name above spelt most like an unknown one, nearest first', () => {
    const text = [
      'ENTRY %e {',
      '  %input.1 = f32[] parameter(0)',
      '  %input.2 = f32[] parameter(1)',
      '  %sum = f32[] add(%inptu.1, %input.2)',
      '  ROOT %r = f32[] add(%sum, %inptu.3)',
      '  %input.3 = f32[] parameter(2)',
      '}',
    ].join('\n');
    assert.deepEqual(readNames(text), [
      [
        'instruction-undefined',
        'inptu.1',
        '`%inptu.1` is not defined in this computation; did you mean `%input.1`? — XLA: instruction does not exist: inptu.1',
      ],
      // %input.3 is further down, and %input.2 is nearer than %input.1 at the same distance.
      [
        'instruction-undefined',
        'inptu.3',
        '`%inptu.3` is not defined in this computation; did you mean `%input.2`? — XLA: instruction does not exist: inptu.3',
      ],
    ]);
  });

  it('reports control predecessors with the parser message of their own', () => {
    const text =
      'c {\n  %a = f32[] parameter(0)\n  ROOT %b = f32[] negate(%a), control-predecessors={%a, %zz}\n}\n';
    assert.deepEqual(names(text), [['instruction-undefined', 'zz', "instruction 'zz' is not defined"]]);
  });

  it('scopes names to their computation: a computation written in place sees none around it', () => {
    const text = [
      'HloModule m',
      'ENTRY %e {',
      '  %p = f32[8] parameter(0)',
      '  %f = f32[8] fusion(%p), kind=kLoop, calls=',
      '  {',
      '    %q = f32[8] parameter(0)',
      '    ROOT %n = f32[8] add(%q, %p)',
      '  }',
      '  %g = f32[8] fusion(%f), kind=kLoop, calls=',
      '  {',
      '    %p = f32[8] parameter(0)',
      '    ROOT %n = f32[8] negate(%p)',
      '  }',
      '  ROOT %r = f32[8] add(%g, %n)',
      '}',
    ].join('\n');
    assert.deepEqual(names(text), [
      ['instruction-undefined', 'p', 'instruction does not exist: p'],
      // `%n` exists only inside the bodies.
      ['instruction-undefined', 'n', 'instruction does not exist: n'],
    ]);
  });

  it('reports a name defined twice and a second ROOT, pointing at the first', () => {
    const text =
      'c {\n  %a = f32[] parameter(0)\n  ROOT %a = f32[] negate(%a)\n  ROOT %b = f32[] negate(%a)\n}\n';
    const ds = checkNames(parseHloText(text), text).sort((a, b) => a.range.start - b.range.start);
    assert.deepEqual(
      ds.map((d) => [d.code, d.range.start, d.message, related(text, d)]),
      [
        [
          'instruction-duplicate',
          text.indexOf('a = f32[] negate'),
          'instruction already exists: a',
          [['a', text.indexOf('a = '), 'instruction previously defined here']],
        ],
        [
          'root-duplicate',
          text.lastIndexOf('ROOT'),
          'one computation should have only one ROOT',
          [['ROOT', text.indexOf('ROOT'), 'the first ROOT']],
        ],
      ],
    );
  });

  it('reports a parameter number taken twice in one computation, each body written in place numbering its own', () => {
    const text = [
      'c {',
      '  %x = f32[] parameter(0)',
      '  %y = f32[] parameter( 1 )',
      '  %z = f32[] parameter(0)',
      '  ROOT %f = f32[] fusion(%x, %y, %z), kind=kLoop, calls=',
      '  {',
      '    %a = f32[] parameter(0)',
      '    ROOT %b = f32[] negate(%a)',
      '  }',
      '}',
    ].join('\n');
    const ds = checkNames(parseHloText(text), text);
    assert.deepEqual(
      ds.map((d) => [d.code, d.range.start, d.message, related(text, d)]),
      [
        [
          'parameter-duplicate',
          text.indexOf('0)', text.indexOf('%z')),
          'Duplicate parameter number 0',
          [['0', text.indexOf('0)'), 'the first parameter(0)']],
        ],
      ],
    );
  });

  it('counts a name as defined by its instruction only, never by the signature', () => {
    // ParseParamList reads the signature's names and drops them (hlo_parser.cc).
    assert.deepEqual(names('c (x: f32[2]{0}, y: s32[]) -> f32[2] {\n  ROOT %r = f32[2] negate(%y)\n}\n'), [
      ['instruction-undefined', 'y', 'instruction does not exist: y'],
    ]);
    assert.deepEqual(
      names('c (x: f32[]) -> f32[] {\n  %r = f32[] negate(%x)\n  ROOT %x = f32[] parameter(0)\n}\n'),
      [['instruction-undefined', 'x', 'instruction does not exist: x']],
    );
  });

  it('reports an entry_computation_layout whose counts differ from the entry computation, where XLA aborts', () => {
    // Verdicts of jaxlib's XLA (test/xla/entry-layout.test.ts judges generated ones): the parser
    // accepts all of these; the import to MLIR aborts on the first two, counting tuples flattened.
    const entry = (layout: string, body: string) =>
      `HloModule m, entry_computation_layout={${layout}}\n\n%main (x: f32[4]) -> f32[4] {\n${body}\n}\n`;
    const one = '  ROOT %x = f32[4]{0} parameter(0)';
    const two = '  %x = f32[4]{0} parameter(0)\n  ROOT %t = (f32[4]{0}, f32[4]{0}) tuple(%x, %x)';
    assert.deepEqual(names(entry('(f32[4]{0}, f32[4]{0})->f32[4]{0}', one)), [
      [
        'entry-layout-count',
        'f32[4]{0}, f32[4]{0}',
        'Check failed: parameter_shapes.size() == main.getNumArguments() (2 vs. 1)',
      ],
    ]);
    const twoText = entry('(f32[4]{0})->f32[4]{0}', two);
    const result = checkNames(parseHloText(twoText), twoText);
    assert.deepEqual(
      result.map((d) => [d.code, d.message, d.plain]),
      [
        [
          'root-shape-mismatch',
          'Shape of computation main, f32[4], is not compatible with that of its root instruction t, (f32[4], f32[4])',
          'the computation is declared to return f32[4], but its ROOT t is (f32[4], f32[4])',
        ],
        [
          'entry-layout-count',
          'Check failed: result_shapes.size() == main.getNumResults() (1 vs. 2)',
          "entry_computation_layout's result holds 1 array, but the ROOT of the entry computation main holds 2: XLA aborts on the mismatch (tuples count by their elements)",
        ],
      ],
    );
    // Equal counts: shapes, ranks and layouts that differ are accepted, and tuples count flattened.
    for (const layout of ['(f32[8]{0})->s32[2,2]{0,1}', '((f32[4]{0}))->(f32[4]{0})'])
      assert.deepEqual(names(entry(layout, one)), []);
    // A blank or a line break between the opcode and its `(` is XLA's blank: still a parameter.
    for (const spaced of [
      one.replace('parameter(', 'parameter ('),
      one.replace('parameter(', 'parameter\n('),
      one.replace('parameter(', 'parameter /* n */('),
    ])
      assert.deepEqual(names(entry('(f32[4]{0})->f32[4]{0}', spaced)), [], spaced);
  });

  it('reads a computation on one line as XLA does: header, instructions and `}` are statements of their own', () => {
    // Each place is jaxlib 0.10.2's "was parsing L:C" for the same text; [] where it accepts it.
    const where = namePlaces;
    const entry = 'ENTRY %e { ROOT %c = f32[] constant(0) }';
    assert.deepEqual(where(`HloModule m\n\n${entry}`), []);
    assert.deepEqual(where(`HloModule m\n\n${entry}\n`), []);
    assert.deepEqual(
      where('HloModule m\n\nENTRY %e { %a = f32[] parameter(0) ROOT %r = f32[] negate(%a) }\n'),
      [],
    );
    assert.deepEqual(
      where('HloModule m\n\nENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] negate(%a) }\n'),
      [],
    );
    assert.deepEqual(where(`HloModule m ${entry}\n`), []);
    assert.deepEqual(
      where(
        `HloModule m\n\n%c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) } ENTRY %e { %a = f32[] parameter(0)\n ROOT %r = f32[] call(%a), to_apply=%c }\n`,
      ),
      [],
    );
    // An empty body on one line: XLA wants an instruction at the `}`.
    assert.deepEqual(where('HloModule m\n\nENTRY %e {}\n'), ['3:11 expects name']);
    assert.deepEqual(where('HloModule m\n\nENTRY %e { }\n'), ['3:12 expects name']);
    // What follows the `}` on its line is what XLA reads next.
    assert.deepEqual(where(`HloModule m\n\n${entry} foo\n`), [
      "4:1 expects '{' at the beginning of instruction list.",
    ]);
    assert.deepEqual(where(`HloModule m\n\n${entry}\n${entry.replace('%e', '%f')}\n`), [
      '4:1 expects only one ENTRY',
    ]);
    assert.deepEqual(where(`HloModule m\n\n${entry}}\n`), ['3:41 expects name']);
  });

  it("reads what follows the HloModule line's attributes on its line as the next statement, as XLA does", () => {
    // Each place is jaxlib 0.10.2's "was parsing L:C" (its columns on line 1 are one less); [] where it accepts it.
    const where = namePlaces;
    const body = '\n  ROOT %c = f32[] constant(0)\n}\n';
    for (const attributes of [
      ', is_scheduled=true',
      ', replica_count=1',
      ', frontend_attributes={a="b"}',
      ', entry_computation_layout={()->f32[]}',
    ]) {
      assert.deepEqual(
        where(`HloModule m${attributes} ENTRY %e { ROOT %c = f32[] constant(0) }\n`),
        [],
        attributes,
      );
      assert.deepEqual(where(`HloModule m${attributes} ENTRY %e {${body}`), [], attributes);
    }
    assert.deepEqual(
      where(
        'HloModule m, is_scheduled=true %c (x: f32[]) -> f32[] { ROOT %x = f32[] parameter(0) }\n' +
          'ENTRY %e {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] call(%a), to_apply=%c\n}\n',
      ),
      [],
    );
    assert.deepEqual(where(`HloModule m, is_scheduled=true %c = f32[] constant(0)\nENTRY %e {${body}`), [
      "1:35 expects '{' at the beginning of instruction list.",
    ]);
    assert.deepEqual(where(`HloModule m, is_scheduled=true}\nENTRY %e {${body}`), ['1:31 expects name']);
  });

  it('reports a computation never closed, and statements outside any, where XLA stops', () => {
    // Each place is jaxlib's "was parsing L:C" for the same text.
    const where = (text: string) =>
      checkNames(parseHloText(text), text).map((d) => {
        const before = text.slice(0, d.range.start);
        return [
          d.code,
          `${before.split('\n').length}:${d.range.start - before.lastIndexOf('\n')}`,
          d.message,
        ];
      });
    const body = '  ROOT %x = f32[] parameter(0)\n';
    assert.deepEqual(where(`HloModule m\n\nENTRY %e {\n${body}`), [
      ['computation-unclosed', '5:1', 'expects name'],
    ]);
    assert.deepEqual(
      where(`HloModule m\n\n%c (x: f32[]) -> f32[] {\n${body}\n%d (y: f32[]) -> f32[] {\n${body}}\n`),
      [['computation-unclosed', '6:4', "expects '=' in instruction"]],
    );
    assert.deepEqual(where(`HloModule m\n\n%c (x: f32[]) -> f32[] {\n${body}\nENTRY %e {\n${body}}\n`), [
      ['computation-unclosed', '6:1', 'expects name'],
    ]);
    // The signature is not compared with the last instruction, nor the parameters numbered: XLA stops first.
    assert.deepEqual(
      where(
        'HloModule m\n\nENTRY %e (a: f32[2]) -> f32[2] {\n  %a = f32[2]{0} parameter(1)\n  %b = f32[2,3]{1,0} broadcast(%a), dimensions={0}\n',
      ),
      [['computation-unclosed', '6:1', 'expects name']],
    );
    assert.deepEqual(where(`HloModule m\n\n%c (x: f32[]) -> f32[] {\n${body}}\n}\n`), [
      ['outside-computation', '6:1', 'expects name'],
    ]);
    assert.deepEqual(where(`HloModule m\n\n  %a = f32[] parameter(0)\nENTRY %e {\n${body}}\n`), [
      ['outside-computation', '3:6', "expects '{' at the beginning of instruction list."],
    ]);
    assert.deepEqual(where(`HloModule m\n\n%c {\n${body}}\n${body}}\n`), [
      ['outside-computation', '6:3', 'expects name'],
      ['outside-computation', '7:1', 'expects name'],
    ]);
    // A module cut short: in the source tables, or before its first computation.
    assert.deepEqual(where('HloModule m\n\nFileNames\n1 "a.py"\n\nFunctionNames\n1 "f"\n'), [
      ['computation-unclosed', '8:1', "expects 'FileLocations'"],
    ]);
    assert.deepEqual(where('HloModule m\n'), [['computation-unclosed', '2:1', 'expects name']]);
    // The entry computation's layout is not compared when XLA's parser stops before the import.
    assert.deepEqual(
      where(
        `HloModule m, entry_computation_layout={(f32[], f32[])->f32[]}\n\nENTRY %e (x: f32[]) -> f32[] {\n${body}`,
      ).map(([c]) => c),
      ['computation-unclosed'],
    );
  });

  it('reports parameter numbers outside 0..N-1, where XLA aborts', () => {
    const gap =
      'c {\n  %a = f32[] parameter(0)\n  %b = f32[] parameter(2)\n  ROOT %r = f32[] add(%a, %b)\n}\n';
    assert.deepEqual(names(gap), [
      ['parameter-number', '2', 'invalid parameter number. Expected [0, 2), got 2'],
    ]);
    const none = 'c {\n  ROOT %a = f32[] parameter(1)\n}\n';
    assert.deepEqual(names(none), [
      ['parameter-number', '1', 'invalid parameter number. Expected [0, 1), got 1'],
    ]);
    const many = `c {\n${[0, 5, 6, 7, 8].map((n) => `  %p${n} = f32[] parameter(${n})`).join('\n')}\n}\n`;
    assert.deepEqual(
      readNames(many),
      [5, 6, 7, 8].map((n) => [
        'parameter-number',
        String(n),
        `the computation's 5 parameters must be numbered 0 to 4, and parameter(1), parameter(2), parameter(3), ... are missing: XLA aborts on this CHECK — XLA: invalid parameter number. Expected [0, 5), got ${n}`,
      ]),
    );
    // A duplicate is what XLA's parser stops on first; a number it cannot read leaves the count open.
    assert.deepEqual(
      names('c {\n  %a = f32[] parameter(1)\n  %b = f32[] parameter(1)\n}\n').map(([code]) => code),
      ['parameter-duplicate'],
    );
    assert.deepEqual(names('c {\n  %a = f32[] parameter(x)\n  %b = f32[] parameter(1)\n}\n'), []);
    // Each computation written in place numbers its own parameters.
    const inPlace =
      'c {\n  %p = f32[] parameter(0)\n  ROOT %f = f32[] fusion(%p), kind=kLoop, calls=\n  {\n    ROOT %q = f32[] parameter(0)\n  }\n}\n';
    assert.deepEqual(names(inPlace), []);
  });

  it('reads no operand names in literals, and the operands of an instruction written in place of an operand in the same scope', () => {
    const text =
      'c {\n  %a = f32[2] constant({1, 2})\n  %i = s32[4] iota(), iota_dimension=0\n  ROOT %r = f32[2] add(%a, f32[2] negate(%a))\n}\n';
    assert.deepEqual(names(text), []);
    const nested =
      'c {\n  %a = f32[] parameter(0)\n  ROOT %r = f32[] add(%a, f32[] negate(f32[] multiply(%a, %later)))\n  %later = f32[] constant(1)\n}\n';
    assert.deepEqual(names(nested), [
      ['instruction-undefined', 'later', 'instruction does not exist: later'],
    ]);
  });

  it('reports calls of computations not complete before the call, and duplicates per module', () => {
    const text = [
      'HloModule m',
      '%add (a: f32[], b: f32[]) -> f32[] {',
      '  %a = f32[] parameter(0)',
      '  %b = f32[] parameter(1)',
      '  ROOT %s = f32[] call(%a, %b), to_apply=%add',
      '}',
      'ENTRY %main (p: f32[8]) -> f32[] {',
      '  %p = f32[8] parameter(0)',
      '  %z = f32[] constant(0)',
      '  %r = f32[] reduce(%p, %z), dimensions={0}, to_apply=%add',
      '  %w = f32[] call(%r), to_apply=%later',
      '  %i = s32[] constant(0)',
      '  ROOT %c = f32[] conditional(%i, %r, %r), branch_computations={%add, %nope}',
      '}',
      '%later (x: f32[]) -> f32[] {',
      '  ROOT %x = f32[] parameter(0)',
      '}',
      'ENTRY %add {',
      '  ROOT %x = f32[] parameter(0)',
      '}',
      '// -----',
      '%later (x: f32[]) -> f32[] {',
      '  ROOT %x = f32[] parameter(0)',
      '}',
    ].join('\n');
    const known = (n: string) =>
      `\`%${n}\` is defined further down: XLA's parser knows a computation only after its closing \`}\`, so move it above this use — XLA: computation does not exist: ${n}`;
    assert.deepEqual(readNames(text), [
      ['computation-undefined', 'add', known('add')],
      ['computation-undefined', 'later', known('later')],
      [
        'computation-undefined',
        'nope',
        '`%nope` is not defined in this module — XLA: computation does not exist: nope',
      ],
      [
        'entry-duplicate',
        'ENTRY',
        'this module already has an ENTRY computation: keep the keyword on one of the two — XLA: expects only one ENTRY',
      ],
      [
        'computation-duplicate',
        'add',
        '`%add` is already defined above in this module: rename one of the two — XLA: computation already exists: add',
      ],
    ]);
  });

  it('reports a computation wrapped by a second async-start, not by its own -update and -done', () => {
    const text = [
      'HloModule m',
      '%wrapped (x: f32[8]) -> f32[8] {',
      '  ROOT %x = f32[8] parameter(0)',
      '}',
      'ENTRY %main {',
      '  %p = f32[8] parameter(0)',
      '  %start1 = ((f32[8]), f32[8], s32[]) async-start(%p), calls=%wrapped',
      '  %update1 = ((f32[8]), f32[8], s32[]) async-update(%start1), calls=%wrapped',
      '  %d1 = f32[8] async-done(%update1), calls=%wrapped',
      '  %start2 = ((f32[8]), f32[8], s32[]) async-start(%d1), calls=%wrapped',
      '  %c = f32[8] call(%d1), to_apply=%wrapped',
      '  ROOT %d2 = f32[8] async-done(%start2), calls=%wrapped',
      '}',
    ].join('\n');
    const ds = checkNames(parseHloText(text), text);
    const second = text.indexOf('wrapped', text.indexOf('%start2 ='));
    assert.deepEqual(
      ds.map((d) => [d.code, d.range.start, d.message, related(text, d)]),
      [
        [
          'async-computation-shared',
          second,
          'Computation wrapped is called by more than one async op.',
          [
            [
              'wrapped',
              text.indexOf('wrapped', text.indexOf('%start1 =')),
              'the first async-start that calls it',
            ],
          ],
        ],
      ],
    );
  });

  it('reports 200,000 unknown operands of one instruction, each once', () => {
    // More diagnostics than a call takes arguments: no spread pushes on the way.
    const text = `c {\n  ROOT %r = f32[] add(${'%u, '.repeat(200_000)}%u)\n}\n`;
    const ds = checkNames(parseHloText(text), text);
    assert.equal(ds.length, 200_001);
    assert.ok(
      ds.every((d) => d.code === 'instruction-undefined' && text.slice(d.range.start, d.range.end) === 'u'),
    );
  });

  it('finds nothing in the corpus of XLA files or in the examples', () => {
    const files = [
      ...readdirSync(CORPUS_HLO_DIR).map((f) => join(CORPUS_HLO_DIR, f)),
      ...readdirSync(EXAMPLES).map((f) => join(EXAMPLES, f)),
    ].filter((f) => /\.hlo(txt)?$/.test(f));
    assert.ok(files.length >= (SHARED_CORPUS ? 40 : 10), `${files.length} files`);
    for (const f of files) assert.deepEqual(names(readFileSync(f, 'utf8')), [], f);
  });

  it('property: shuffled instructions are reported exactly where an operand comes before its definition', () => {
    // Instruction k uses some of the instructions before it in the written order; after a shuffle,
    // every operand whose definition now stands below it (or is its own) is reported, and no other.
    const computation = fc.integer({ min: 1, max: 12 }).chain((n) =>
      fc.record({
        uses: fc.tuple(
          ...Array.from({ length: n }, (_, k) =>
            fc.uniqueArray(fc.integer({ min: 0, max: Math.max(0, k - 1) }), { maxLength: k === 0 ? 0 : 3 }),
          ),
        ),
        order: fc.shuffledSubarray(
          Array.from({ length: n }, (_, k) => k),
          { minLength: n, maxLength: n },
        ),
      }),
    );
    fc.assert(
      fc.property(computation, ({ uses, order }) => {
        // The instructions without operands are parameters, numbered 0..N-1 as XLA requires.
        const leaves = uses.flatMap((u, k) => (u.length === 0 ? [k] : []));
        const line = (k: number) =>
          `  %i${k} = f32[] ${uses[k].length === 0 ? `parameter(${leaves.indexOf(k)})` : `add(${uses[k].map((u) => `%i${u}`).join(', ')})`}`;
        const text = `c {\n${order.map(line).join('\n')}\n}\n`;
        const position = new Map(order.map((k, at) => [k, at]));
        const expected = order.flatMap((k) =>
          uses[k].filter((u) => position.get(u)! > position.get(k)!).map((u) => `i${u}`),
        );
        assert.deepEqual(
          names(text).map(([code, name]) => `${code} ${name}`),
          expected.map((n) => `instruction-undefined ${n}`),
        );
      }),
    );
  });

  it('property: shuffled computations are reported exactly where a call comes before its callee', () => {
    const module = fc.integer({ min: 1, max: 8 }).chain((n) =>
      fc.record({
        calls: fc.tuple(
          ...Array.from({ length: n }, (_, k) =>
            fc
              .option(fc.integer({ min: 0, max: Math.max(0, k - 1) }), { nil: undefined })
              .map((c) => (k === 0 ? undefined : c)),
          ),
        ),
        order: fc.shuffledSubarray(
          Array.from({ length: n }, (_, k) => k),
          { minLength: n, maxLength: n },
        ),
      }),
    );
    fc.assert(
      fc.property(module, ({ calls, order }) => {
        const computation = (k: number) => {
          const body =
            calls[k] === undefined
              ? 'ROOT %x = f32[] parameter(0)'
              : `%x = f32[] parameter(0)\n  ROOT %y = f32[] call(%x), to_apply=%c${calls[k]}`;
          return `%c${k} (x: f32[]) -> f32[] {\n  ${body}\n}`;
        };
        const text = `HloModule m\n${order.map(computation).join('\n')}\n`;
        const position = new Map(order.map((k, at) => [k, at]));
        const expected = order.flatMap((k) =>
          calls[k] !== undefined && position.get(calls[k])! > position.get(k)! ? [`c${calls[k]}`] : [],
        );
        assert.deepEqual(
          names(text).map(([code, name]) => `${code} ${name}`),
          expected.map((n) => `computation-undefined ${n}`),
        );
      }),
    );
  });

  it('property: nests of computations written in place, each defining the same names, are clean', () => {
    fc.assert(
      fc.property(inlineBody(4), (body) => {
        assert.deepEqual(names(inlineModule(body).text), []);
      }),
    );
  });
});
