/**
 * "Live at the peak": the values live at the module's peak grouped by the source line they come
 * from, largest first, each with its bytes, its share of the peak (a bar) and its largest value. A
 * group's place opens its source line, its value the instruction in the HLO: both are messages
 * naming the group by its position, which the host looks up in its own copy of the model.
 */
import {
  formatPercent,
  groupDigits,
  humanBytes,
  type MemoryPeakJson,
  type PeakGroupJson,
} from '../../../core/src';
import type { MemoryToHostMessage } from '../../../protocol/src/memory';
import { el } from '../dom';

/** Groups shown before "Show all". */
const FIRST_GROUPS = 12;

function row(g: PeakGroupJson, i: number, post: (m: MemoryToHostMessage) => void): HTMLElement {
  const bar = el('span', { class: 'peak-bar', 'aria-hidden': 'true' });
  bar.style.setProperty('--share', String(g.share));
  const place =
    g.instruction?.sourceFile !== undefined
      ? el('a', { href: '#', class: 'source-link', title: 'Open this line of the program' }, g.label)
      : el('span', {}, g.label);
  place.addEventListener('click', (e) => {
    e.preventDefault();
    post({ type: g.instruction?.sourceFile !== undefined ? 'openSource' : 'reveal', peakGroup: i });
  });
  const largest =
    g.largest.shape !== undefined ? `${g.largest.position} ${g.largest.shape}` : g.largest.position;
  const value = el(
    'a',
    { href: '#', class: 'value-link', title: 'Show this instruction in the HLO' },
    g.values > 1 ? `${largest} and ${groupDigits(g.values - 1)} more` : largest,
  );
  value.addEventListener('click', (e) => {
    e.preventDefault();
    post({ type: 'reveal', peakGroup: i });
  });
  return el(
    'tr',
    { 'data-group': String(i) },
    el('td', { class: 'numeric share' }, bar, formatPercent(g.share)),
    el('td', { class: 'numeric' }, humanBytes(BigInt(g.bytes))),
    el('td', { class: 'place' }, place),
    el('td', { class: 'value mono' }, value),
  );
}

/** The section, or undefined when the model has no peak to break down. */
export function peakSection(
  peak: MemoryPeakJson | undefined,
  post: (m: MemoryToHostMessage) => void,
): HTMLElement | undefined {
  if (peak === undefined || peak.groups.length === 0) return undefined;
  const at = peak.instruction !== undefined ? `, at %${peak.instruction.name}` : '';
  const body = el('tbody', {});
  const fill = (count: number) =>
    body.replaceChildren(...peak.groups.slice(0, count).map((g, i) => row(g, i, post)));
  fill(FIRST_GROUPS);
  const rest = peak.groups.length - FIRST_GROUPS;
  const more =
    rest > 0
      ? el(
          'button',
          { type: 'button', class: 'show-more', id: 'peak-more' },
          `Show ${groupDigits(rest)} more`,
        )
      : undefined;
  more?.addEventListener('click', () => {
    fill(peak.groups.length);
    more.remove();
  });
  return el(
    'section',
    { class: 'peak-breakdown', id: 'peak-breakdown', 'aria-label': 'Live at the peak' },
    el(
      'h2',
      {},
      `Live at the peak: ${humanBytes(BigInt(peak.bytes))} at step ${peak.time}${peak.of !== undefined ? ` of ${peak.of}` : ''}${at}`,
    ),
    el(
      'table',
      { id: 'peak-groups', class: 'data-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { class: 'numeric' }, 'share'),
          el('th', { class: 'numeric' }, 'bytes'),
          el('th', {}, 'from'),
          el('th', {}, 'largest value'),
        ),
      ),
      body,
    ),
    more,
  );
}
