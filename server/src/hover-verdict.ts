/**
 * The first line of a shape hover: the answer a person came for, in plain words (core's verdict.ts,
 * written as Markdown here), or for an invalid shape, that it is invalid and why. Details follow in
 * hover-shape.ts. Every piece of document text goes through markdown.ts.
 */
import {
  arrayVerdict as coreArrayVerdict,
  readableMessage,
  tupleVerdict as coreTupleVerdict,
  type ArrayExplanation,
  type LayoutDiagnostic,
  type Markup,
  type ShapeExplanation,
} from '../../core/src';
import { cell, code } from '../../protocol/src/markdown';

const MARKDOWN: Markup = { strong: (s) => `**${s}**`, code, text: cell };

/** The first line for one array, as Markdown. */
export function arrayVerdict(a: ArrayExplanation): string {
  return coreArrayVerdict(a, MARKDOWN);
}

/** The first line for a tuple, as Markdown. */
export function tupleVerdict(e: ShapeExplanation): string {
  return coreTupleVerdict(e, MARKDOWN);
}

/**
 * A diagnostic as hover Markdown: its readable message with each `quoted` piece as a code span.
 * Every piece is escaped or a code span, whatever document text the message quotes.
 */
export function messageMarkdown(d: LayoutDiagnostic): string {
  return readableMessage(d)
    .split(/(`[^`\n]+`)/)
    .map((piece, i) => (i % 2 === 1 ? code(piece.slice(1, -1)) : cell(piece)))
    .join('');
}

/**
 * The first line for an invalid shape: that it is invalid, and the first reason in plain words. When
 * every problem is a warning (a layout XLA does not check where it is written), it says XLA accepts
 * it there, as the warning does.
 */
export function invalidVerdict(problems: readonly LayoutDiagnostic[]): string {
  const errors = problems.filter((d) => d.severity === 'error');
  const first = errors[0] ?? problems[0];
  const more = problems.length > 1 ? ` (+${problems.length - 1} more)` : '';
  const head =
    errors.length > 0 || !first ? '**Invalid layout:**' : '**Invalid layout, which XLA accepts here:**';
  return `${head} ${first ? messageMarkdown(first) : 'XLA rejects this shape'}${more}`;
}
