/**
 * The visualizer page: source line, toolbar (compare, zoom, export, reveal), the slice selectors
 * and one or two layout panes. It owns what is shown; main.ts wires it to the host.
 */
import type { ArrayShape } from '../../core/src';
import { printShape } from '../../core/src';
import type { ShowShapeMessage, WebviewToHostMessage } from '../../protocol/src/webview';
import { el, replaceChildren } from './dom';
import type { GridWindow } from './grid-window';
import { LayoutPane } from './pane';
import { Selection } from './selection';
import { SliceControls } from './slice-controls';
import { windowsToSvg, type SvgPart } from './svg-export';
import { readTheme, watchTheme, type Theme } from './theme';

/** What the page remembers across reloads (VS Code's webview state). */
export interface PageState {
  readonly shown: ShowShapeMessage;
  readonly edited: string;
  readonly compare: string | undefined;
}

export class App {
  private theme: Theme;
  private readonly selection = new Selection();
  private readonly slice = new SliceControls();
  private readonly panes: [LayoutPane, LayoutPane];
  private readonly sourceLine: HTMLElement;
  private readonly revealButton: HTMLButtonElement;
  private readonly compareButton: HTMLButtonElement;
  private readonly notice: HTMLElement;
  private readonly paneRow: HTMLElement;
  private shown: ShowShapeMessage | undefined;
  private compare = false;
  /** Set when a `show` arrives; cleared by the first complete paint, which records its time. */
  private paintStart: number | undefined;
  /** Each pane's draw count when the `show` arrived. */
  private paintBaseline: number[] = [];
  private shownCount = 0;

  constructor(
    private readonly root: HTMLElement,
    private readonly send: (message: WebviewToHostMessage) => void,
    private readonly saveState: (state: PageState) => void,
  ) {
    this.theme = readTheme(root);
    this.sourceLine = el('span', { class: 'source', id: 'source-name' });
    this.revealButton = button('Reveal in editor', 'reveal', () => this.send({ type: 'reveal' }));
    this.revealButton.hidden = true;
    this.compareButton = button('Compare', 'compare', () => this.setCompare(!this.compare));
    this.compareButton.setAttribute('aria-pressed', 'false');
    this.notice = el('div', { class: 'notice', role: 'status', 'aria-live': 'polite', id: 'notice' });
    this.panes = [
      new LayoutPane('a', this.theme, this.selection, this.slice, 'Shape'),
      new LayoutPane('b', this.theme, this.selection, this.slice, 'Compare with'),
    ];
    this.panes[1].root.hidden = true;
    this.paneRow = el('div', { class: 'panes' }, this.panes[0].root, this.panes[1].root);
    // Grouped, with short faces for zoom and export (their accessible names stay the full words),
    // so the toolbar fits one line in an editor-side panel about 500 px wide.
    const group = (label: string, ...buttons: HTMLButtonElement[]): HTMLElement =>
      el('div', { class: 'group', role: 'group', 'aria-label': label }, ...buttons);
    const toolbar = el(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Visualizer actions' },
      group('Compare', this.compareButton),
      group(
        'View',
        button('Fit', 'fit', () =>
          this.eachDrawn((p) => {
            p.logical.fit();
            p.memory.fit();
          }),
        ),
        button('−', 'zoom-out', () => this.eachDrawn((p) => p.logical.zoom(0.8)), 'Zoom out'),
        button('+', 'zoom-in', () => this.eachDrawn((p) => p.logical.zoom(1.25)), 'Zoom in'),
      ),
      group(
        'Export',
        button('PNG', 'export-png', () => void this.exportPng(), 'Export PNG'),
        button('SVG', 'export-svg', () => this.exportSvg(), 'Export SVG'),
      ),
      this.revealButton,
    );
    replaceChildren(
      root,
      el('header', {}, this.sourceLine, toolbar),
      this.slice.root,
      this.notice,
      this.paneRow,
    );
    this.panes.forEach((pane, i) => {
      pane.field.onChange = (text) => this.edited(i, text);
      pane.onDrawn = () => this.painted();
    });
    this.slice.onChange = () => {
      this.selection.reset();
      for (const p of this.visiblePanes()) p.build(true);
    };
    watchTheme(() => {
      this.theme = readTheme(root);
      for (const p of this.panes) p.setTheme(this.theme);
    });
  }

  /** Shows a shape sent by the host; `edited`/`compare` restore what the user had typed. */
  show(message: ShowShapeMessage, edited?: string, compare?: string): void {
    this.shown = message;
    this.paintStart = performance.now();
    this.paintBaseline = this.panes.map((p) => p.draws);
    this.root.dataset.firstPaintMs = '';
    const source = message.source;
    this.sourceLine.textContent = source !== undefined ? `Source: ${source.name}` : 'Shape typed by hand';
    this.revealButton.hidden = source?.uri === undefined;
    const b = compare ?? message.compareWith;
    this.selection.reset();
    this.analyzeAll(edited ?? message.shape, b);
    if (b !== undefined) this.setCompare(true);
    // Paint synchronously: the first picture should not wait for a frame.
    for (const p of this.visiblePanes()) p.drawNow();
    this.shownCount++;
    this.root.dataset.shown = String(this.shownCount);
  }

  /** The host's answer to an export request. */
  exportResult(ok: boolean, detail: string): void {
    this.notice.textContent = ok ? `Saved ${detail}` : detail;
  }

  private visiblePanes(): LayoutPane[] {
    return this.compare ? this.panes : [this.panes[0]];
  }

  private eachDrawn(action: (pane: LayoutPane) => void): void {
    for (const p of this.visiblePanes()) if (p.mapper !== undefined) action(p);
  }

  private analyzeAll(a: string, b: string | undefined): void {
    const first = this.panes[0].analyze(a, false);
    if (b !== undefined) this.panes[1].analyze(b, false);
    this.slice.setDims(first.kind === 'array' ? first.shape.dims : []);
    for (const p of this.visiblePanes()) p.build(true);
    this.checkSameArray();
    this.persist();
  }

  private edited(index: number, text: string): void {
    const pane = this.panes[index];
    const before = pane.drawable?.shape.dims.join(',');
    const analysis = pane.analyze(text, true);
    const after = analysis.kind === 'array' ? analysis.shape.dims.join(',') : undefined;
    if (index === 0) this.slice.setDims(analysis.kind === 'array' ? analysis.shape.dims : []);
    if (before !== after) this.selection.reset();
    // Panes re-fit by themselves when the array changed; a new layout of the same array keeps the view.
    for (const p of this.visiblePanes()) p.build(false);
    this.checkSameArray();
    this.persist();
  }

  private setCompare(on: boolean): void {
    this.compare = on;
    this.compareButton.setAttribute('aria-pressed', String(on));
    this.panes[1].root.hidden = !on;
    this.paneRow.classList.toggle('comparing', on);
    if (on) {
      const b = this.panes[1];
      if (b.analysis === undefined) b.analyze(this.suggestedComparison(), false);
      b.build(true);
      this.checkSameArray();
    } else {
      replaceChildren(this.notice);
    }
    this.persist();
  }

  /** The first shape with its two minor-most dims swapped in minor_to_major, e.g. {1,0:T(8,128)} → {0,1:T(8,128)}. */
  private suggestedComparison(): string {
    const a = this.panes[0].drawable;
    if (a === undefined || a.shape.minorToMajor.length < 2) return this.panes[0].field.value;
    const m2m = [...a.shape.minorToMajor];
    [m2m[0], m2m[1]] = [m2m[1], m2m[0]];
    const swapped: ArrayShape = { ...a.shape, minorToMajor: m2m };
    return printShape(swapped);
  }

  private checkSameArray(): void {
    if (!this.compare) return;
    const [a, b] = [this.panes[0].drawable, this.panes[1].drawable];
    if (a === undefined || b === undefined) {
      replaceChildren(this.notice);
      return;
    }
    const same =
      a.shape.elementType === b.shape.elementType && a.shape.dims.join(',') === b.shape.dims.join(',');
    this.notice.textContent = same
      ? ''
      : 'The two shapes are different arrays: compare mode is meant for two layouts of the same array.';
  }

  private painted(): void {
    if (this.paintStart === undefined) return;
    // Painted when every pane with a picture drew both its views since the `show`.
    const settled = this.visiblePanes().every(
      (p, i) => p.mapper === undefined || p.draws >= (this.paintBaseline[i] ?? 0) + 2,
    );
    if (!settled) return;
    this.root.dataset.firstPaintMs = (performance.now() - this.paintStart).toFixed(1);
    this.paintStart = undefined;
  }

  private persist(): void {
    if (this.shown === undefined) return;
    this.saveState({
      shown: this.shown,
      edited: this.panes[0].field.value,
      compare: this.compare ? this.panes[1].field.value : undefined,
    });
  }

  private svgParts(): SvgPart[] {
    const parts: SvgPart[] = [];
    for (const p of this.visiblePanes()) {
      const add = (title: string, win: GridWindow | undefined): void => {
        if (win !== undefined) parts.push({ title, window: win });
      };
      add(`${p.field.value} — logical view`, p.logical.window);
      add(`${p.field.value} — memory`, p.memory.window);
    }
    return parts;
  }

  private exportSvg(): void {
    const parts = this.svgParts();
    if (parts.length === 0) {
      this.notice.textContent = 'Zoom in until cells are drawn one by one to export SVG.';
      return;
    }
    this.send({
      type: 'export',
      format: 'svg',
      fileName: 'layout.svg',
      data: windowsToSvg(parts, this.theme),
    });
  }

  /** The visible canvases of every shown pane, stacked into one PNG. */
  private async exportPng(): Promise<void> {
    const canvases = this.visiblePanes()
      .filter((p) => p.mapper !== undefined)
      .map((p) => [p.logical.canvas, p.memory.canvas] as const);
    if (canvases.length === 0) return;
    const width = canvases.reduce((w, [l, m]) => w + Math.max(l.width, m.width), 0);
    const height = Math.max(...canvases.map(([l, m]) => l.height + m.height));
    const out = document.createElement('canvas');
    out.width = width;
    out.height = height;
    const ctx = out.getContext('2d');
    if (ctx === null) return;
    ctx.fillStyle = this.theme.background.css;
    ctx.fillRect(0, 0, width, height);
    let x = 0;
    for (const [l, m] of canvases) {
      ctx.drawImage(l, x, 0);
      ctx.drawImage(m, x, l.height);
      x += Math.max(l.width, m.width);
    }
    const blob = await new Promise<Blob | null>((resolve) => out.toBlob(resolve, 'image/png'));
    if (blob === null) return;
    const bytes = new Uint8Array(await blob.arrayBuffer());
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000)
      binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    this.send({ type: 'export', format: 'png', fileName: 'layout.png', data: btoa(binary) });
  }
}

/** A toolbar button; `name`, when given, is its accessible name and tooltip (the face is shorter). */
function button(face: string, id: string, action: () => void, name?: string): HTMLButtonElement {
  const b = el('button', { type: 'button', id: `action-${id}`, 'aria-label': name, title: name }, face);
  b.addEventListener('click', action);
  return b;
}
