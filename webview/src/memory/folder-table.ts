/**
 * A dump folder in the Memory View: its modules ranked by XLA's total (then peak, then padding),
 * as the host sent them, one row each; a row opens its module's Memory View (a message naming the
 * row's position, which the host looks up in its own list).
 */
import { formatPercent, groupDigits, humanBytes } from '../../../core/src';
import type { MemoryToHostMessage, ShowFolderMessage } from '../../../protocol/src/memory';
import { el } from '../dom';

export function folderSection(
  message: ShowFolderMessage,
  post: (m: MemoryToHostMessage) => void,
): HTMLElement {
  const rows = message.modules.map((m, i) => {
    const total = BigInt(m.totalBytes);
    const padding = BigInt(m.paddingBytes);
    const share = total > 0n ? Number((padding * 1_000_000n) / total) / 1_000_000 : 0;
    const open = el('a', { href: '#', class: 'module-link mono', title: m.name }, m.module || m.name);
    const tr = el(
      'tr',
      { 'data-module': String(i), tabindex: '0' },
      el('td', { class: 'numeric' }, String(i + 1)),
      el('td', { class: 'numeric' }, humanBytes(total)),
      el('td', { class: 'numeric' }, m.peakBytes !== undefined ? humanBytes(BigInt(m.peakBytes)) : '—'),
      el('td', { class: 'numeric' }, padding > 0n ? `${humanBytes(padding)} (${formatPercent(share)})` : '—'),
      el('td', { class: 'numeric' }, groupDigits(m.allocations)),
      el('td', {}, open, m.basis === 'estimate' ? ' (estimate)' : ''),
    );
    const go = (e: Event) => {
      e.preventDefault();
      post({ type: 'openModule', module: i });
    };
    tr.addEventListener('click', go);
    tr.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') go(e);
    });
    return tr;
  });
  const count = message.modules.length;
  return el(
    'section',
    { class: 'folder', id: 'folder', 'aria-label': 'Modules of the folder' },
    el('div', { class: 'title-row' }, el('span', { class: 'module', title: message.uri }, message.name)),
    el(
      'h1',
      { id: 'headline', class: 'headline' },
      count === 0
        ? 'No module with a buffer assignment or an optimized HLO in this folder.'
        : `${groupDigits(count)} module${count === 1 ? '' : 's'}, largest first: ${message.modules[0].module || message.modules[0].name} allocates ${humanBytes(BigInt(message.modules[0].totalBytes))}.`,
    ),
    el(
      'table',
      { id: 'modules', class: 'data-table folder-table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { class: 'numeric' }, '#'),
          el('th', { class: 'numeric' }, "XLA's total"),
          el('th', { class: 'numeric' }, 'peak'),
          el('th', { class: 'numeric' }, 'padding'),
          el('th', { class: 'numeric' }, 'allocations'),
          el('th', {}, 'module'),
        ),
      ),
      el('tbody', {}, ...rows),
    ),
  );
}
