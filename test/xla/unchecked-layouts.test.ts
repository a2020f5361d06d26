/**
 * Random shapes (generate-shapes.ts) put where XLA parses a shape but does not validate its layout:
 * a computation signature's parameter and result, an operand's declared shape, custom-call
 * operand_layout_constraints. XLA's verdict decides: `xla-layout check` and the language server
 * must report an error exactly where XLA refuses the module (an invalid layout there is a warning,
 * not an error). The operand and result placements pair the shape with an instruction of the same
 * shape without layout, since XLA compares their types and dimensions. Seeded (XLA_LENS_SEED);
 * XLA_LENS_SHAPES sets how many shapes are drawn.
 */
import * as assert from 'node:assert/strict';
import { parseShapeText, primitiveType, printShape } from '../../core/src';
import { buildCli } from '../cli/run-cli';
import { mulberry32 } from '../support/prng';
import { describeWithXla } from '../support/real-xla';
import { generateShape } from './generate-shapes';
import { judgeOnce, rejects, type XlaVerdict } from './oracle';
import { checkErrors, serverErrors, type OurError } from './our-verdicts';
import { oneLine, runSeed, Tally } from './tally';

interface Placed {
  readonly place: string;
  readonly shape: string;
  readonly text: string;
}

function module(header: string, body: string): string {
  return `HloModule m\n\nENTRY %e${header} {\n${body}\n}\n`;
}

/** `shape` without its layout, when it is an array XLA can copy; undefined otherwise. */
function withoutLayout(shape: string): string | undefined {
  const parsed = parseShapeText(shape);
  if (parsed.failed || parsed.diagnostics.length > 0 || parsed.shape?.kind !== 'array') return undefined;
  if (!primitiveType(parsed.shape.elementType)?.isArray) return undefined;
  return printShape(parsed.shape, { layout: false });
}

/**
 * `shape` in each unchecked place it fits. Signatures get no shape with a line break in it: where
 * this tool reads a computation header split over lines is another matter (it ends the header).
 */
function placements(shape: string): Placed[] {
  const header = !/[\n\r]/.test(shape);
  const out: Placed[] = [];
  if (header)
    out.push({
      place: 'signature parameter',
      shape,
      text: module(` (a: ${shape}) -> f32[]`, '  ROOT %a = f32[] parameter(0)'),
    });
  const plain = withoutLayout(shape);
  if (plain === undefined) return out;
  const param = `  %a = ${plain} parameter(0)\n`;
  if (header)
    out.push({
      place: 'signature result',
      shape,
      text: module(` (a: ${plain}) -> ${shape}`, `${param}  ROOT %r = ${plain} copy(%a)`),
    });
  out.push({ place: 'operand', shape, text: module('', `${param}  ROOT %r = ${plain} copy(${shape} %a)`) });
  // XLA requires a layout on each constraint.
  if (shape.includes('{'))
    out.push({
      place: 'operand_layout_constraints',
      shape,
      text: module(
        '',
        `${param}  ROOT %r = ${plain} custom-call(%a), custom_call_target="f", operand_layout_constraints={${shape}}`,
      ),
    });
  return out;
}

/**
 * Whether XLA refuses the text. The MLIR import has not implemented tiles and memory spaces in
 * operand_layout_constraints (`UNIMPLEMENTED: Tiled layout is not supported yet`): a limit of
 * that step, not XLA's rules (the parser and the compiler take them), so that counts as accepted.
 */
function xlaRefuses(v: XlaVerdict): boolean {
  return rejects(v) && !(v.stage === 'import' && v.message.startsWith('UNIMPLEMENTED'));
}

function ours(errors: readonly OurError[]): string {
  return errors.length === 0
    ? 'no error'
    : errors.map((e) => `${e.code} at ${e.line}:${e.column}`).join(', ');
}

describeWithXla('the real XLA judges invalid layouts where it does not check layouts', function (xla) {
  this.timeout(300_000);
  const seed = runSeed();
  const count = Number(process.env.XLA_LENS_SHAPES ?? 600);
  const tally = new Tally();
  let cases: Placed[] = [];
  let verdicts: XlaVerdict[] = [];

  before(async () => {
    const rand = mulberry32(seed);
    cases = Array.from({ length: count }, () => generateShape(rand)).flatMap(placements);
    verdicts = await judgeOnce(
      xla,
      cases.map((c) => c.text),
    );
    buildCli();
  });

  after(() => {
    const accepted = verdicts.filter((v) => !xlaRefuses(v)).length;
    console.log(
      `      XLA judged ${cases.length} placed shapes (seed ${seed}; XLA_LENS_SEED=${seed} replays): ` +
        `accepted ${accepted}\n${tally.summary()}`,
    );
  });

  function compare(path: string, errors: readonly (readonly OurError[])[]): void {
    cases.forEach((c, i) => {
      const v = verdicts[i];
      tally.add(`${path}: ${c.place}`, xlaRefuses(v), errors[i].length > 0, () => ({
        what: JSON.stringify(c.shape),
        xla: `${v.verdict} ${v.stage}: ${oneLine(v.message)}`,
        ours: ours(errors[i]),
      }));
    });
    const paths = [...new Set(cases.map((c) => `${path}: ${c.place}`))];
    assert.ok(
      tally.agrees(paths),
      `${path} disagrees with XLA (seed ${seed}; XLA_LENS_SEED=${seed} replays):\n${tally.summary()}\n${tally.examples(paths)}`,
    );
  }

  it('xla-layout check reports an error exactly where XLA refuses the module', () => {
    compare('check', checkErrors(cases.map((c) => c.text)));
  });

  it('the language server reports an error exactly where XLA refuses the module (over LSP)', async () => {
    compare('server', await serverErrors(cases.map((c) => c.text)));
  });
});
