/**
 * The editable shape field. Typing re-renders live (coalesced to one analysis per frame); problems
 * are listed under the field, each with the offending characters underlined, and the first one is
 * also underlined inside the field through a mirror layer that scrolls with the input.
 */
import { readableMessage, type LayoutDiagnostic } from '../../core/src';
import { el, replaceChildren } from './dom';

const EXCERPT_CONTEXT = 40;
const MAX_LISTED = 5;

export class ShapeField {
  readonly root: HTMLElement;
  readonly input: HTMLInputElement;
  private readonly mirror: HTMLElement;
  private readonly problems: HTMLElement;
  private frame = 0;
  /** Called with the new text once per animation frame while the user types. */
  onChange: ((text: string) => void) | undefined;

  constructor(id: string, label: string) {
    this.input = el('input', {
      id,
      type: 'text',
      class: 'shape-input',
      spellcheck: 'false',
      autocomplete: 'off',
      'aria-describedby': `${id}-problems`,
    });
    this.mirror = el('div', { class: 'shape-mirror', 'aria-hidden': 'true' });
    this.problems = el('div', {
      id: `${id}-problems`,
      class: 'problems',
      role: 'status',
      'aria-live': 'polite',
    });
    this.root = el(
      'div',
      { class: 'shape-field' },
      el('label', { for: id }, label),
      el('div', { class: 'shape-input-wrap' }, this.mirror, this.input),
      this.problems,
    );
    this.input.addEventListener('input', () => {
      if (this.frame !== 0) return;
      this.frame = requestAnimationFrame(() => {
        this.frame = 0;
        this.onChange?.(this.input.value);
      });
    });
    this.input.addEventListener('scroll', () => {
      this.mirror.scrollLeft = this.input.scrollLeft;
    });
  }

  get value(): string {
    return this.input.value;
  }

  set value(text: string) {
    this.input.value = text;
  }

  /** Shows the problems of `text` (the text they were computed for) and a summary line. */
  showProblems(text: string, diagnostics: readonly LayoutDiagnostic[], summary: string | undefined): void {
    const sorted = [...diagnostics].sort((a, b) => rank(a) - rank(b) || a.range.start - b.range.start);
    const first = sorted[0];
    this.input.setAttribute('aria-invalid', String(first?.severity === 'error' || summary !== undefined));
    // The mirror holds the same text, transparent, with the first problem's range underlined.
    if (first !== undefined) {
      const { start, end } = clampRange(text, first.range.start, first.range.end);
      replaceChildren(
        this.mirror,
        text.slice(0, start),
        el('span', { class: `squiggle ${first.severity}` }, end > start ? text.slice(start, end) : ' '),
        text.slice(end),
      );
    } else {
      replaceChildren(this.mirror, text);
    }
    this.mirror.scrollLeft = this.input.scrollLeft;
    const items = sorted.slice(0, MAX_LISTED).map((d) => this.problemItem(text, d));
    if (sorted.length > MAX_LISTED)
      items.push(el('div', { class: 'problem more' }, `and ${sorted.length - MAX_LISTED} more`));
    replaceChildren(
      this.problems,
      summary !== undefined ? el('div', { class: 'summary' }, summary) : undefined,
      ...items,
    );
  }

  private problemItem(text: string, d: LayoutDiagnostic): HTMLElement {
    const { start, end } = clampRange(text, d.range.start, d.range.end);
    const from = Math.max(0, start - EXCERPT_CONTEXT);
    const to = Math.min(text.length, end + EXCERPT_CONTEXT);
    const excerpt = el(
      'code',
      { class: 'excerpt' },
      from > 0 ? '…' : undefined,
      text.slice(from, start),
      el(
        'span',
        { class: `squiggle ${d.severity}`, 'data-start': start, 'data-end': end },
        end > start ? text.slice(start, end) : ' ',
      ),
      text.slice(end, to),
      to < text.length ? '…' : undefined,
    );
    const item = el(
      'div',
      {
        class: `problem ${d.severity}`,
        'data-code': d.code,
        tabindex: 0,
        title: 'Select the characters in the field',
      },
      el('span', { class: 'severity' }, d.severity),
      ' ',
      el('span', { class: 'message' }, readableMessage(d)),
      ' ',
      el('span', { class: 'code' }, `[${d.code}]`),
      el('br'),
      excerpt,
    );
    const pick = (): void => {
      this.input.focus();
      this.input.setSelectionRange(start, end);
    };
    item.addEventListener('click', pick);
    item.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') pick();
    });
    return item;
  }
}

function rank(d: LayoutDiagnostic): number {
  return d.severity === 'error' ? 0 : d.severity === 'warning' ? 1 : 2;
}

function clampRange(text: string, start: number, end: number): { start: number; end: number } {
  const s = Math.max(0, Math.min(text.length, start));
  return { start: s, end: Math.max(s, Math.min(text.length, end)) };
}
