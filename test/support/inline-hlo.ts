/**
 * Random HLO with computations written in place (`calls=\n{ ... }`) nested in each other, for
 * property tests of the module model and of the server's navigation over it.
 */
import fc from 'fast-check';

/** A computation body: one parameter per entry, and for some a fusion opening a body of its own. */
export interface InlineBody {
  readonly opens: readonly (InlineBody | undefined)[];
}

/** Bodies nested up to `depth` levels. */
export const inlineBody: fc.Memo<InlineBody> = fc.memo((depth) =>
  fc.record({
    opens: fc.array(
      depth > 1 ? fc.option(inlineBody(depth - 1), { nil: undefined }) : fc.constant(undefined),
      { minLength: 1, maxLength: 4 },
    ),
  }),
);

/**
 * The HLO module of `body` as the ENTRY computation, and how many computations are written in
 * place in it. Every body defines `%p0` and `%r` again, so names only resolve right when they are
 * scoped to their own body.
 */
export function inlineModule(body: InlineBody): { text: string; inline: number } {
  const write = (b: InlineBody, indent: string): { text: string; inline: number } => {
    let text = '';
    let inline = 0;
    b.opens.forEach((inner, k) => {
      text += `${indent}%p${k} = f32[2]{0} parameter(${k})\n`;
      if (!inner) return;
      const nested = write(inner, `${indent}  `);
      text += `${indent}%t${k} = f32[2]{0} fusion(%p${k}), kind=kLoop, calls=\n${indent}{\n${nested.text}${indent}}\n`;
      inline += 1 + nested.inline;
    });
    return { text: `${text}${indent}ROOT %r = f32[2]{0} negate(%p0)\n`, inline };
  };
  const { text, inline } = write(body, '  ');
  return { text: `HloModule m\n\nENTRY %e {\n${text}}\n`, inline };
}
