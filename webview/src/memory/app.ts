/**
 * The Memory View page: the answer first (how much memory, how much of it padding, the worst
 * offender and what to change; where nothing much pads, the peak and what is live then), totals that mean something (XLA's total, the padding share, the
 * peak, memory spaces), the treemap of allocations coloured by padding, and the table of
 * allocations or values, sortable and filterable. Everything from the model is rendered as text.
 */
import {
  companionKind,
  formatPercent,
  groupDigits,
  humanBytes,
  type CompanionKind,
  type MemoryModuleJson,
} from '../../../core/src';
import type { MemoryToHostMessage, ShowFolderMessage, ShowMemoryMessage } from '../../../protocol/src/memory';
import { append, el, replaceChildren } from '../dom';
import {
  ALLOCATION_COLUMNS,
  VALUE_COLUMNS,
  allocationRows,
  matches,
  valueRows,
  type AllocationRow,
  type ValueRow,
} from './rows';
import { folderSection } from './folder-table';
import { peakSection } from './peak-table';
import { SortableTable, type SortState } from './table';
import { drawTreemap, layoutTiles } from './treemap';

/** What the page remembers across reloads (VS Code's webview state), with the dump it is about. */
export interface MemoryPageState {
  /** The dump's URI, for VS Code to hand back to the extension after a reload. */
  readonly uri: string;
  readonly name: string;
  readonly tab: 'allocations' | 'values';
  readonly filter: string;
  /** Values of this allocation only. */
  readonly allocation?: number;
  readonly allocationSort: SortState;
  readonly valueSort: SortState;
}

const DEFAULT_STATE: Omit<MemoryPageState, 'name' | 'uri'> = {
  tab: 'allocations',
  filter: '',
  // Both tables largest first, as XLA's memory-usage report lists them; a click sorts otherwise.
  allocationSort: { column: 'size', descending: true },
  valueSort: { column: 'xla', descending: true },
};

const FILE_LABELS: Readonly<Record<CompanionKind, string>> = {
  'buffer-assignment': 'buffer assignment',
  'buffer-assignment-values': 'values',
  'memory-usage-report': 'memory-usage report',
  'live-range': 'live ranges',
};

/** `From module_0042….txt and its buffer assignment, memory-usage report and live ranges.` */
function filesLine(message: ShowMemoryMessage): string {
  const labels = message.files.map((f) => {
    const kind = companionKind(f);
    return kind ? FILE_LABELS[kind] : f;
  });
  if (labels.length === 0) return `From ${message.name} alone.`;
  const list = labels.length === 1 ? labels[0] : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `From ${message.name} and its ${list}.`;
}

function share(part: string, whole: string): number {
  const w = BigInt(whole);
  return w > 0n ? Number((BigInt(part) * 1_000_000n) / w) / 1_000_000 : 0;
}

/** A figure with its label: `Padding 37 GiB · 92.2% of it`. */
function stat(label: string, value: string, detail?: string, id?: string, bad = false): HTMLElement {
  return el(
    'div',
    { class: bad ? 'stat bad' : 'stat', id },
    el('div', { class: 'stat-label' }, label),
    el('div', { class: 'stat-value' }, value),
    detail ? el('div', { class: 'stat-detail' }, detail) : undefined,
  );
}

export class MemoryApp {
  private state: MemoryPageState = { uri: '', name: '', ...DEFAULT_STATE };
  private model: MemoryModuleJson | undefined;
  private allocations: AllocationRow[] = [];
  private values: ValueRow[] = [];
  private readonly allocationTable: SortableTable<AllocationRow>;
  private readonly valueTable: SortableTable<ValueRow>;
  private readonly filter: HTMLInputElement;
  private readonly chip: HTMLElement;
  private readonly count: HTMLElement;
  private readonly tabs: { allocations: HTMLButtonElement; values: HTMLButtonElement };
  private readonly answer = el('section', { class: 'answer', 'aria-live': 'polite' });
  private readonly totals = el('section', { class: 'totals', 'aria-label': 'Totals' });
  /** "Live at the peak", replaced with each module shown. */
  private peak: HTMLElement = el('section', { class: 'peak-breakdown' });
  private readonly picture = el('section', { class: 'picture', 'aria-label': 'Allocations by size' });
  private readonly tableHost = el('div', { class: 'table-host' });
  private readonly tableSection: HTMLElement;
  /** A dump folder's ranking, while one is shown. */
  private folder: HTMLElement | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly post: (m: MemoryToHostMessage) => void,
    private readonly save: (state: MemoryPageState) => void,
  ) {
    this.allocationTable = new SortableTable<AllocationRow>(
      {
        id: 'allocations',
        caption: 'Allocations',
        columns: ALLOCATION_COLUMNS,
        open: (r) => this.showValuesOf(r.allocation.index),
        sorted: (allocationSort) => this.update({ allocationSort }),
      },
      DEFAULT_STATE.allocationSort,
    );
    this.valueTable = new SortableTable<ValueRow>(
      {
        id: 'values',
        caption: 'Values',
        columns: VALUE_COLUMNS,
        open: (r) => this.post({ type: 'reveal', allocation: r.allocation.index, value: r.position }),
        openSource: (r) =>
          this.post({ type: 'openSource', allocation: r.allocation.index, value: r.position }),
        sorted: (valueSort) => this.update({ valueSort }),
      },
      DEFAULT_STATE.valueSort,
    );
    this.filter = el('input', {
      id: 'filter',
      type: 'search',
      placeholder: 'Filter: name, shape, kind, source…',
      'aria-label': 'Filter rows',
      spellcheck: 'false',
    });
    this.filter.addEventListener('input', () => this.update({ filter: this.filter.value }));
    this.chip = el('button', { type: 'button', id: 'allocation-chip', class: 'chip', hidden: true });
    this.chip.addEventListener('click', () => this.update({ allocation: undefined }));
    this.count = el('span', { id: 'row-count', class: 'count' });
    const tab = (id: 'allocations' | 'values', label: string) => {
      const b = el('button', { type: 'button', role: 'tab', id: `tab-${id}`, 'aria-controls': id }, label);
      b.addEventListener('click', () => this.update({ tab: id }));
      return b;
    };
    this.tabs = { allocations: tab('allocations', 'Allocations'), values: tab('values', 'Values') };
    const toolbar = el(
      'div',
      { class: 'toolbar' },
      el('div', { class: 'tabs', role: 'tablist' }, this.tabs.allocations, this.tabs.values),
      this.filter,
      this.chip,
      this.count,
    );
    append(
      root,
      this.answer,
      this.peak,
      this.totals,
      this.picture,
      (this.tableSection = el('section', { class: 'table-section' }, toolbar, this.tableHost)),
    );
    new ResizeObserver(() => this.drawPicture()).observe(this.picture);
  }

  /** Shows a module; `saved` restores the tab, filter and sorting the user had on this dump. */
  show(message: ShowMemoryMessage, saved?: MemoryPageState): void {
    this.setModuleHidden(false);
    this.model = message.module;
    this.allocations = allocationRows(message.module.allocations);
    this.values = valueRows(message.module.allocations);
    const keep = saved !== undefined && saved.uri === message.uri;
    this.state = keep ? saved : { uri: message.uri, name: message.name, ...DEFAULT_STATE };
    this.allocationTable.sortBy(this.state.allocationSort.column, this.state.allocationSort.descending);
    this.valueTable.sortBy(this.state.valueSort.column, this.state.valueSort.descending);
    this.filter.value = this.state.filter;
    this.drawAnswer(message);
    const peak = peakSection(message.module.peak, this.post);
    if (peak) this.peak.replaceWith(peak);
    else this.peak.replaceChildren();
    this.peak = peak ?? this.peak;
    this.drawTotals(message.module);
    this.drawPicture();
    this.drawTable();
    this.save(this.state);
    this.root.dataset.shown = String(Number(this.root.dataset.shown ?? 0) + 1);
    this.root.dataset.basis = message.module.basis;
  }

  /** Shows a dump folder: its modules ranked, each row opening its module. */
  showFolder(message: ShowFolderMessage): void {
    this.model = undefined;
    this.folder?.remove();
    this.folder = folderSection(message, this.post);
    this.root.prepend(this.folder);
    this.setModuleHidden(true);
    this.save({ uri: message.uri, name: message.name, ...DEFAULT_STATE });
    this.root.dataset.shown = String(Number(this.root.dataset.shown ?? 0) + 1);
  }

  /** Hides (for a folder) or shows again (for a module) the sections of one module. */
  private setModuleHidden(hidden: boolean): void {
    for (const section of [this.answer, this.peak, this.totals, this.picture, this.tableSection])
      section.hidden = hidden;
    if (!hidden) {
      this.folder?.remove();
      this.folder = undefined;
    }
  }

  /** The host could not read the dump. */
  error(message: string): void {
    this.setModuleHidden(false);
    this.answer.replaceChildren(el('h1', { class: 'headline error' }, message));
    this.root.dataset.shown = String(Number(this.root.dataset.shown ?? 0) + 1);
  }

  private update(change: Partial<MemoryPageState>): void {
    this.state = { ...this.state, ...change };
    this.save(this.state);
    if (change.allocationSort === undefined && change.valueSort === undefined) {
      this.drawTable();
      if ('allocation' in change) this.drawPicture();
    }
  }

  private showValuesOf(allocation: number): void {
    this.update({ tab: 'values', allocation, filter: '' });
    this.filter.value = '';
  }

  private drawAnswer(message: ShowMemoryMessage): void {
    const m = message.module;
    const h = m.headline;
    const facts: HTMLElement[] = [];
    // Where nothing much pads, the peak and what is live then answer first.
    const peakFirst = h.lead === 'peak' && h.peak !== undefined;
    if (peakFirst) facts.push(el('li', { class: 'memory' }, h.memory));
    else if (h.peak) facts.push(el('li', { class: 'peak' }, h.peak));
    if (h.peakWhy) facts.push(el('li', { class: 'peak-why' }, h.peakWhy));
    if (h.xlaPeak) facts.push(el('li', { class: 'xla-peak' }, h.xlaPeak));
    if (h.worst) facts.push(el('li', { class: 'worst' }, h.worst));
    if (h.change) facts.push(el('li', { class: 'change' }, h.change));
    if (h.disagreements) facts.push(el('li', { class: 'disagreements' }, h.disagreements));
    replaceChildren(
      this.answer,
      el(
        'div',
        { class: 'title-row' },
        el('span', { class: 'module', title: message.name }, m.module || message.name),
        el(
          'span',
          { class: `basis ${m.basis}` },
          m.basis === 'estimate' ? 'Estimate from the HLO' : "XLA's buffer assignment",
        ),
      ),
      el('h1', { id: 'headline', class: 'headline' }, peakFirst ? h.peak : h.memory),
      h.note ? el('p', { id: 'estimate-note', class: 'note' }, h.note) : undefined,
      facts.length > 0 ? el('ul', { class: 'facts' }, ...facts) : undefined,
      el('p', { class: 'files', title: message.files.join('\n') }, filesLine(message)),
    );
  }

  private drawTotals(m: MemoryModuleJson): void {
    const waste = share(m.paddingBytes, m.totalBytes);
    const useful = BigInt(m.totalBytes) - BigInt(m.paddingBytes);
    const values = m.valueCount;
    const cards = [
      stat(
        m.basis === 'estimate' ? 'Estimated total' : "XLA's total",
        humanBytes(BigInt(m.totalBytes)),
        `${groupDigits(BigInt(m.totalBytes))} B`,
        'total',
      ),
      stat(
        'Padding',
        humanBytes(BigInt(m.paddingBytes)),
        BigInt(m.paddingBytes) > 0n ? `${formatPercent(waste)} of the total` : 'none',
        'padding',
        BigInt(m.paddingBytes) > 0n,
      ),
      m.peak
        ? stat(
            'Peak live',
            humanBytes(BigInt(m.peak.bytes)),
            `step ${m.peak.time}${m.peak.of !== undefined ? ` of ${m.peak.of}` : ''}`,
            'peak',
          )
        : undefined,
      stat(
        m.basis === 'estimate' ? 'Buffers' : 'Allocations',
        groupDigits(m.allocations.length),
        `${groupDigits(values)} value${values === 1 ? '' : 's'}`,
        'counts',
      ),
    ].filter((c): c is HTMLElement => c !== undefined);
    const bar = el('div', {
      class: 'usage-bar',
      role: 'img',
      'aria-label': `${formatPercent(waste)} of the total is padding`,
    });
    const used = el('span', { class: 'used' });
    const pad = el('span', { class: 'pad' });
    used.style.setProperty('flex-grow', String(1 - waste));
    pad.style.setProperty('flex-grow', String(waste));
    bar.append(used, pad);
    const spaces =
      m.spaces.length > 1
        ? el(
            'p',
            { class: 'spaces' },
            `Memory spaces: ${m.spaces.map((s) => `${s.name} ${humanBytes(BigInt(s.bytes))}`).join(' · ')}`,
          )
        : undefined;
    replaceChildren(
      this.totals,
      el('div', { class: 'stats' }, ...cards),
      bar,
      el(
        'div',
        { class: 'legend' },
        el('span', { class: 'key used' }),
        `data ${humanBytes(useful)}`,
        el('span', { class: 'key pad' }),
        `padding ${humanBytes(BigInt(m.paddingBytes))}`,
      ),
      spaces,
    );
  }

  private drawPicture(): void {
    if (!this.model) return;
    const width = Math.max(200, Math.floor(this.picture.clientWidth));
    const height = Math.max(140, Math.min(260, Math.round(width * 0.28)));
    const tiles = layoutTiles(this.allocations, width, height);
    const svg = drawTreemap(
      tiles,
      width,
      height,
      (rows) => {
        if (rows.length === 1) this.showValuesOf(rows[0].allocation.index);
        else this.update({ tab: 'allocations', allocation: undefined });
      },
      this.state.allocation,
    );
    this.picture.replaceChildren(
      svg,
      el(
        'div',
        { class: 'scale', 'aria-hidden': 'true' },
        el('span', {}, 'no padding'),
        el('span', { class: 'gradient' }),
        el('span', {}, 'all padding'),
      ),
    );
  }

  private drawTable(): void {
    const words = this.state.filter.toLowerCase().split(/\s+/).filter(Boolean);
    const { tab, allocation } = this.state;
    this.tabs.allocations.setAttribute('aria-selected', String(tab === 'allocations'));
    this.tabs.values.setAttribute('aria-selected', String(tab === 'values'));
    this.chip.hidden = tab !== 'values' || allocation === undefined;
    this.chip.textContent = allocation !== undefined ? `allocation ${allocation} ✕` : '';
    this.chip.title = 'Show the values of every allocation';
    let shown: number;
    let all: number;
    if (tab === 'allocations') {
      const rows = this.allocations.filter((r) => matches(r, words));
      this.allocationTable.setRows(rows);
      this.tableHost.replaceChildren(this.allocationTable.element, this.allocationTable.moreButton);
      [shown, all] = [rows.length, this.allocations.length];
    } else {
      const pool =
        allocation === undefined ? this.values : this.values.filter((r) => r.allocation.index === allocation);
      const rows = pool.filter((r) => matches(r, words));
      this.valueTable.setRows(rows);
      this.tableHost.replaceChildren(this.valueTable.element, this.valueTable.moreButton);
      [shown, all] = [rows.length, pool.length];
    }
    const omitted = this.model?.allocations.reduce((n, a) => n + (a.omittedValues ?? 0), 0) ?? 0;
    this.count.textContent = `${groupDigits(shown)} of ${groupDigits(all)}${tab === 'values' && omitted > 0 ? ` (${groupDigits(omitted)} smaller values not sent)` : ''}`;
  }
}
