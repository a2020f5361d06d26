/**
 * The visualizer page: source line, toolbar (follow the editor, compare, zoom, export, reveal),
 * the legend, the slice selectors and one or two layout panes. It owns what is shown; main.ts
 * wires it to the host.
 */
import type { ArrayShape } from '../../core/src';
import { printShape } from '../../core/src';
import type { ShowShapeMessage, WebviewToHostMessage } from '../../protocol/src/webview';
import type { TupleElement } from './analyze';
import { NO_SLICE, defaultSlice } from './default-slice';
import { el, replaceChildren } from './dom';
import { exportFileName, picture, pngBase64, svgDocument } from './export';
import { Legend } from './legend';
import { LayoutPane } from './pane';
import { Selection } from './selection';
import { SliceControls } from './slice-controls';
import { readTheme, watchTheme, type Theme } from './theme';
import { ViewGroup } from './view-group';

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
  private readonly legend: Legend;
  private readonly panes: [LayoutPane, LayoutPane];
  private readonly sourceLine: HTMLElement;
  private readonly revealButton: HTMLButtonElement;
  private readonly compareButton: HTMLButtonElement;
  private readonly followButton: HTMLButtonElement;
  private readonly notice: HTMLElement;
  private readonly paneRow: HTMLElement;
  private shown: ShowShapeMessage | undefined;
  private compare = false;
  /** Whether the host follows the editor's cursor (it decides; the page shows and toggles it). */
  private following = true;
  private groups: ViewGroup[] = [];
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
    this.revealButton = button('Reveal', 'reveal', () => this.send({ type: 'reveal' }), 'Reveal in editor');
    this.revealButton.hidden = true;
    this.followButton = button(
      'Follow',
      'follow',
      () => this.setFollow(!this.following, true),
      'Follow the cursor: show the shape at the cursor of the active HLO editor',
    );
    this.setFollow(true, false);
    this.compareButton = button('Compare', 'compare', () => this.setCompare(!this.compare));
    this.compareButton.setAttribute('aria-pressed', 'false');
    this.notice = el('div', { class: 'notice', role: 'status', 'aria-live': 'polite', id: 'notice' });
    this.legend = new Legend(this.theme);
    this.panes = [
      new LayoutPane('a', this.theme, this.selection, this.slice, 'Shape'),
      new LayoutPane('b', this.theme, this.selection, this.slice, 'Compare with'),
    ];
    this.panes[1].root.hidden = true;
    this.panes[1].answer.hidden = true;
    this.paneRow = el('div', { class: 'panes' }, this.panes[0].root, this.panes[1].root);
    // Grouped, with short faces for zoom and export (their accessible names stay the full words),
    // so the toolbar fits one line in an editor-side panel about 500 px wide.
    const group = (label: string, ...buttons: HTMLButtonElement[]): HTMLElement =>
      el('div', { class: 'group', role: 'group', 'aria-label': label }, ...buttons);
    // Zoom and fit act on the first pane; in compare mode the second follows it (one zoom).
    const first = (): LayoutPane | undefined =>
      this.panes[0].mapper !== undefined ? this.panes[0] : undefined;
    const toolbar = el(
      'div',
      { class: 'toolbar', role: 'toolbar', 'aria-label': 'Visualizer actions' },
      group('Editor', this.followButton),
      group('Compare', this.compareButton),
      group(
        'View',
        button('Fit', 'fit', () => {
          first()?.logical.fit();
          first()?.memory.fit();
        }),
        button('−', 'zoom-out', () => first()?.logical.zoom(0.8), 'Zoom out'),
        button('+', 'zoom-in', () => first()?.logical.zoom(1.25), 'Zoom in'),
      ),
      group(
        'Export',
        button('PNG', 'export-png', () => void this.exportPng(), 'Export PNG'),
        button('SVG', 'export-svg', () => this.exportSvg(), 'Export SVG'),
      ),
      this.revealButton,
    );
    // The answer (sizes, the dimension that pads, the fix) right under the toolbar, before any control.
    replaceChildren(
      root,
      el('header', {}, this.sourceLine, toolbar),
      el(
        'div',
        { class: 'answers', role: 'status', 'aria-live': 'polite' },
        this.panes[0].answer,
        this.panes[1].answer,
      ),
      this.legend.root,
      this.slice.root,
      this.notice,
      this.paneRow,
    );
    this.panes.forEach((pane, i) => {
      pane.field.onChange = (text) => this.edited(i, text);
      pane.onDrawn = () => this.painted();
      pane.onPick = (element) => this.pick(i, element);
    });
    this.slice.onChange = () => {
      this.selection.reset();
      for (const p of this.visiblePanes()) p.build(true);
      this.linkViews();
    };
    watchTheme(() => {
      this.theme = readTheme(root);
      this.legend.setTheme(this.theme);
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
    const first = this.panes[0].analyze(edited ?? message.shape, false);
    if (b !== undefined) this.panes[1].analyze(b, false);
    if (first.kind === 'array') this.slice.choose(first.shape.dims, defaultSlice(first));
    else this.slice.choose([], NO_SLICE);
    for (const p of this.visiblePanes()) p.build(true);
    this.checkSameArray();
    this.persist();
    if (b !== undefined && !this.compare) this.setCompare(true);
    else this.linkViews();
    // Paint synchronously: the first picture should not wait for a frame.
    for (const p of this.visiblePanes()) p.drawNow();
    this.shownCount++;
    this.root.dataset.shown = String(this.shownCount);
  }

  /** The host's answer to an export request. */
  exportResult(ok: boolean, detail: string): void {
    this.notice.textContent = ok ? `Saved ${detail}` : detail;
  }

  /** Shows whether the panel follows the editor; `tell` reports a click to the host. */
  setFollow(on: boolean, tell: boolean): void {
    this.following = on;
    this.followButton.setAttribute('aria-pressed', String(on));
    if (tell) this.send({ type: 'follow', on });
  }

  private visiblePanes(): LayoutPane[] {
    return this.compare ? this.panes : [this.panes[0]];
  }

  private edited(index: number, text: string): void {
    const pane = this.panes[index];
    const before = pane.drawable?.shape.dims.join(',');
    const analysis = pane.analyze(text, true);
    const after = analysis.kind === 'array' ? analysis.shape.dims.join(',') : undefined;
    if (index === 0) {
      // While the text does not parse the slice stays, so fixing a typo keeps the view.
      if (analysis.kind === 'array') this.slice.retarget(analysis.shape.dims, defaultSlice(analysis));
      else if (analysis.kind === 'tuple') this.slice.choose([], NO_SLICE);
      this.send({ type: 'showing', shape: text });
    }
    if (before !== after) this.selection.reset();
    // Panes re-fit by themselves when the array changed; a new layout of the same array keeps the view.
    for (const p of this.visiblePanes()) p.build(false);
    this.linkViews();
    this.checkSameArray();
    this.persist();
  }

  /** An element picked from the tuple a pane shows: that pane shows the element. */
  private pick(index: number, element: TupleElement): void {
    const pane = this.panes[index];
    const tuple = pane.field.value;
    pane.field.value = element.text;
    this.edited(index, element.text);
    // The element's place in the shape the host sent, so "reveal" selects it in the editor.
    if (index === 0 && tuple === this.shown?.shape)
      this.send({
        type: 'showing',
        shape: element.text,
        element: { start: element.start, end: element.end },
      });
    const name = this.shown?.source?.name;
    if (index === 0 && name !== undefined)
      this.sourceLine.textContent = `Source: ${name}, element {${element.path.join(',')}}`;
  }

  private setCompare(on: boolean): void {
    this.compare = on;
    this.compareButton.setAttribute('aria-pressed', String(on));
    this.panes[1].root.hidden = !on;
    this.panes[1].answer.hidden = !on;
    this.paneRow.classList.toggle('comparing', on);
    if (on) {
      const b = this.panes[1];
      if (b.analysis === undefined) b.analyze(this.suggestedComparison(), false);
      b.build(true);
      this.checkSameArray();
    } else {
      replaceChildren(this.notice);
    }
    this.linkViews(true);
    this.persist();
  }

  /**
   * Compare mode: both logical views in one zoom group, both memory views in another, hosts of one
   * shape (the larger grid), fitted together. Alone, each view zooms on its own.
   */
  private linkViews(refit = false): void {
    for (const g of this.groups) g.dissolve();
    this.groups = [];
    const [a, b] = this.panes;
    if (!this.compare || a.mapper === undefined || b.mapper === undefined) {
      if (refit && a.mapper !== undefined) {
        a.logical.fitDefault();
        a.memory.fitDefault();
      }
      return;
    }
    for (const views of [
      [a.logical, b.logical],
      [a.memory, b.memory],
    ] as const) {
      const rows = Math.max(views[0].vp.rows, views[1].vp.rows);
      const cols = Math.max(views[0].vp.cols, views[1].vp.cols);
      for (const v of views) v.setAspect(rows, cols);
      const group = new ViewGroup(views);
      this.groups.push(group);
      if (refit || views.every((v) => v.autoFit)) group.fit('default');
    }
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

  private exportSvg(): void {
    const data = svgDocument(this.visiblePanes(), this.theme);
    if (data === undefined) {
      this.notice.textContent = 'Zoom in until cells are drawn one by one to export SVG.';
      return;
    }
    this.send({ type: 'export', format: 'svg', fileName: exportFileName(this.visiblePanes(), 'svg'), data });
  }

  /** The visible canvases of every shown pane, under the shapes, into one PNG. */
  private async exportPng(): Promise<void> {
    const canvas = picture(this.visiblePanes(), this.theme);
    const data = canvas !== undefined ? await pngBase64(canvas) : undefined;
    if (data === undefined) return;
    this.send({ type: 'export', format: 'png', fileName: exportFileName(this.visiblePanes(), 'png'), data });
  }
}

/** A toolbar button; `name`, when given, is its accessible name and tooltip (the face is shorter). */
function button(face: string, id: string, action: () => void, name?: string): HTMLButtonElement {
  const b = el('button', { type: 'button', id: `action-${id}`, 'aria-label': name, title: name }, face);
  b.addEventListener('click', action);
  return b;
}
