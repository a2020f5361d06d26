/**
 * A pannable, zoomable canvas over a grid: device-pixel-ratio aware sizing, drawing batched into
 * one requestAnimationFrame, the grid on one canvas and hover / selection on a transparent canvas
 * stacked above it (so pointer moves never redraw the grid, and nothing is copied between canvases),
 * and mouse, wheel and keyboard handling shared by the logical and memory views.
 *
 * Sizing: a webview panel gets its final size only after the page has started (VS Code lays the
 * editor group out around it and resizes it whenever the user drags a sash), so the view never
 * trusts a size measured once. A ResizeObserver on the host re-measures, resizes the backing store
 * to CSS size x devicePixelRatio, and redraws in the same frame (a resized canvas is blank until
 * drawn). Until the user zooms or pans, the view stays fitted: every new size re-fits it.
 *
 * In compare mode the two panes' views of one kind share one zoom through a {@link ViewGroup}:
 * they fit together (at the smaller of their fitted scales) and follow each other's zoom and pan.
 */
import type { Theme } from './theme';
import { Viewport } from './viewport';
import type { ViewGroup } from './view-group';

/**
 * What a fitted view shows: 'default' is the view's own choice (the whole grid, or for the logical
 * view one tile when padding would otherwise be too thin to see); 'whole' the whole grid (Fit, 0).
 */
export type FitMode = 'default' | 'whole';

/** A part of the grid to fit, in cells. */
export interface Extent {
  readonly rows: number;
  readonly cols: number;
}

export interface Cell {
  readonly row: number;
  readonly col: number;
}

export abstract class CanvasView {
  readonly canvas: HTMLCanvasElement;
  readonly vp: Viewport;
  protected theme: Theme;
  /** Transparent layer above `canvas` for selection and hover marks. */
  private readonly overlay: HTMLCanvasElement;
  private baseValid = false;
  private frame = 0;
  /** True while the view shows the fitted grid: resizes re-fit it. Zooming or panning clears it. */
  autoFit = true;
  private fitMode: FitMode = 'default';
  /** The views sharing this one's zoom (compare mode), this one included. */
  group: ViewGroup | undefined;
  /** The devicePixelRatio the backing stores were sized for. */
  private dpr = 0;
  private drag: { x: number; y: number; moved: boolean } | undefined;
  /** CSS pixel size of the labels renderBase drew (0: none); tests read it as data-label-px. */
  protected labelPx = 0;
  /** Called after each frame that redrew the grid layer (not after overlay-only frames). */
  onBaseDrawn: (() => void) | undefined;

  constructor(
    readonly host: HTMLElement,
    theme: Theme,
    label: string,
  ) {
    this.theme = theme;
    this.vp = new Viewport(1, 1);
    this.canvas = document.createElement('canvas');
    this.canvas.tabIndex = 0;
    this.canvas.setAttribute('role', 'img');
    this.canvas.setAttribute('aria-label', label);
    this.overlay = document.createElement('canvas');
    this.overlay.className = 'overlay';
    this.overlay.setAttribute('aria-hidden', 'true');
    host.append(this.canvas, this.overlay);
    new ResizeObserver(() => this.resize()).observe(host);
    this.watchPixelRatio();
    this.listen();
  }

  /** Largest cell size used when fitting the grid to the canvas. */
  protected abstract fitCap(): number;
  /** Whether fitting needs only the grid's width to fit (long strips scroll down instead). */
  protected fitWidthOnly(): boolean {
    return false;
  }
  /** The part of the grid the default fit shows (undefined: the whole grid). */
  protected defaultExtent(): Extent | undefined {
    return undefined;
  }

  /** The cell size at which this view, at its current size, fits what `mode` shows. */
  fitScaleFor(mode: FitMode): number {
    const extent = mode === 'default' ? this.defaultExtent() : undefined;
    return this.vp.fitScale(this.fitCap(), this.fitWidthOnly(), extent);
  }

  /** Shows the grid from its top-left corner at `scale` and keeps it fitted (`mode`) on resizes. */
  fitAt(scale: number, mode: FitMode): void {
    this.autoFit = true;
    this.fitMode = mode;
    this.vp.fitAt(scale);
    this.invalidate();
  }

  /** Takes over another view's zoom and position (compare mode), clamped to this grid. */
  adopt(from: CanvasView): void {
    this.vp.scale = from.vp.scale;
    this.vp.x0 = from.vp.x0;
    this.vp.y0 = from.vp.y0;
    this.vp.clamp();
    this.autoFit = from.autoFit;
    this.fitMode = from.fitMode;
    this.invalidate();
  }

  private refit(): void {
    if (this.group !== undefined) this.group.fit(this.fitMode);
    else this.fitAt(this.fitScaleFor(this.fitMode), this.fitMode);
  }

  /** The user moved or zoomed this view: it stops following resizes, and its group follows it. */
  private moved(): void {
    this.autoFit = false;
    this.group?.follow(this);
    this.invalidate();
  }
  /** Draws the grid (CSS pixel coordinates). */
  protected abstract renderBase(ctx: CanvasRenderingContext2D): void;
  /** Draws selection / hover on the transparent layer above the grid. */
  protected abstract renderOverlay(ctx: CanvasRenderingContext2D): void;
  /** A cell was hovered (undefined: pointer left the grid) or clicked. */
  protected abstract pointerCell(cell: Cell | undefined, click: boolean): void;
  /** Arrow keys and Enter; returns true when handled. */
  protected abstract key(event: KeyboardEvent): boolean;

  setTheme(theme: Theme): void {
    this.theme = theme;
    this.invalidate();
  }

  /** Sets the grid size; `refit` re-fits the view (new data), otherwise the view is kept. */
  setGrid(rows: number, cols: number, refit: boolean): void {
    this.vp.rows = rows;
    this.vp.cols = cols;
    // The host's height follows the grid's shape (CSS clamps it), so a wide strip does not sit
    // above a tall empty canvas and push the memory view off screen.
    this.setAspect(rows, cols);
    if (refit) {
      this.autoFit = true;
      this.fitMode = 'default';
    }
    if (this.autoFit) this.refit();
    else this.vp.clamp();
    this.invalidate();
  }

  /** The host's height follows this grid shape (compare mode gives both panes the larger one). */
  setAspect(rows: number, cols: number): void {
    this.host.style.aspectRatio = `${Math.max(1, cols)} / ${Math.max(1, rows)}`;
  }

  /** Fits the whole grid into the canvas; the view then follows later resizes. */
  fit(): void {
    this.fitMode = 'whole';
    this.refit();
  }

  /** Back to the view the grid opened with (the default fit). */
  fitDefault(): void {
    this.fitMode = 'default';
    this.refit();
  }

  /**
   * Zooms around the selected cell when it is on screen; else around the grid's top-left corner
   * when that is on screen (a fitted grid grows from where it is drawn, instead of sliding out of
   * view when the canvas's centre is empty space below a wide strip); else around the centre.
   */
  zoom(factor: number): void {
    const vp = this.vp;
    const onScreen = (x: number, y: number): boolean => x >= 0 && x <= vp.width && y >= 0 && y <= vp.height;
    const anchor = this.zoomAnchor();
    const ax = anchor !== undefined ? vp.toScreenX(anchor.col + 0.5) : -1;
    const ay = anchor !== undefined ? vp.toScreenY(anchor.row + 0.5) : -1;
    if (onScreen(ax, ay)) vp.zoomAt(factor, ax, ay);
    else if (onScreen(vp.toScreenX(0), vp.toScreenY(0))) vp.zoomAt(factor, vp.toScreenX(0), vp.toScreenY(0));
    else vp.zoomAt(factor, vp.width / 2, vp.height / 2);
    this.moved();
  }

  /** Pans the least needed to show grid cell (row, col); the view then stays where the user took it. */
  protected revealGridCell(row: number, col: number): void {
    const { x0, y0 } = this.vp;
    this.vp.reveal(row, col);
    if (this.vp.x0 === x0 && this.vp.y0 === y0) return;
    this.moved();
  }

  /** The grid cell keyboard zoom keeps in place (the selection), if any. */
  protected zoomAnchor(): Cell | undefined {
    return undefined;
  }

  /** The grid changed: redraw everything on the next frame. */
  invalidate(): void {
    this.baseValid = false;
    this.requestDraw();
  }

  /** Only the overlay changed. */
  requestDraw(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Draws now (used for the first paint, so it is not a frame late). */
  drawNow(): void {
    if (this.frame !== 0) cancelAnimationFrame(this.frame);
    this.frame = 0;
    this.draw();
  }

  /**
   * Matches the canvases to the host's content box and redraws at once. Called by the
   * ResizeObserver and when devicePixelRatio changes (VS Code's zoom level, another monitor).
   */
  private resize(): void {
    // clientWidth/Height: the content box, inside the host's border; whole CSS pixels.
    const width = this.host.clientWidth;
    const height = this.host.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    // A hidden view (display: none) measures 0: keep the last real size rather than fit to nothing.
    if (width <= 0 || height <= 0) return;
    if (width === this.vp.width && height === this.vp.height && dpr === this.dpr) return;
    this.dpr = dpr;
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    this.vp.width = width;
    this.vp.height = height;
    if (this.autoFit) this.refit();
    else this.vp.clamp();
    // Setting a canvas's size clears it: draw in this frame rather than show a blank one.
    this.baseValid = false;
    this.drawNow();
  }

  /** Re-sizes the backing stores whenever devicePixelRatio changes (a media query per ratio). */
  private watchPixelRatio(): void {
    const query = window.matchMedia(`(resolution: ${window.devicePixelRatio || 1}dppx)`);
    query.addEventListener(
      'change',
      () => {
        this.resize();
        this.watchPixelRatio();
      },
      { once: true },
    );
  }

  private draw(): void {
    const ctx = this.canvas.getContext('2d');
    const top = this.overlay.getContext('2d');
    if (ctx === null || top === null || this.vp.width === 0) return;
    const dpr = this.dpr;
    let redrewBase = false;
    if (!this.baseValid) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = this.theme.background.css;
      ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.labelPx = 0;
      this.renderBase(ctx);
      this.baseValid = true;
      redrewBase = true;
      // The transform these pixels were drawn with (CSS px per cell, top-left grid point): tests
      // map cells to pixels with it, and it is the same state the accessible table is built from.
      const data = this.canvas.dataset;
      data.scale = String(this.vp.scale);
      data.x0 = String(this.vp.x0);
      data.y0 = String(this.vp.y0);
      data.labelPx = String(this.labelPx);
    }
    top.setTransform(1, 0, 0, 1, 0, 0);
    top.clearRect(0, 0, this.overlay.width, this.overlay.height);
    top.setTransform(dpr, 0, 0, dpr, 0, 0);
    this.renderOverlay(top);
    if (redrewBase) this.onBaseDrawn?.();
  }

  private point(event: MouseEvent): { x: number; y: number } {
    const rect = this.canvas.getBoundingClientRect();
    return { x: event.clientX - rect.left, y: event.clientY - rect.top };
  }

  private listen(): void {
    const c = this.canvas;
    c.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      c.setPointerCapture(e.pointerId);
      this.drag = { x: e.clientX, y: e.clientY, moved: false };
    });
    c.addEventListener('pointermove', (e) => {
      const drag = this.drag;
      if (drag !== undefined) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (drag.moved || Math.abs(dx) + Math.abs(dy) > 3) {
          drag.moved = true;
          drag.x = e.clientX;
          drag.y = e.clientY;
          this.vp.panBy(dx, dy);
          this.moved();
        }
        return;
      }
      const p = this.point(e);
      this.pointerCell(this.vp.cellAt(p.x, p.y), false);
    });
    c.addEventListener('pointerup', (e) => {
      const drag = this.drag;
      this.drag = undefined;
      if (drag !== undefined && !drag.moved) {
        const p = this.point(e);
        this.pointerCell(this.vp.cellAt(p.x, p.y), true);
      }
    });
    c.addEventListener('pointerleave', () => {
      if (this.drag === undefined) this.pointerCell(undefined, false);
    });
    c.addEventListener(
      'wheel',
      (e) => {
        e.preventDefault();
        if (e.ctrlKey || e.metaKey) {
          const p = this.point(e);
          this.vp.zoomAt(Math.exp(-e.deltaY * 0.0025), p.x, p.y);
        } else {
          this.vp.panBy(-e.deltaX, -e.deltaY);
        }
        this.moved();
      },
      { passive: false },
    );
    c.addEventListener('keydown', (e) => {
      let handled = true;
      if (e.key === '+' || e.key === '=') this.zoom(1.25);
      else if (e.key === '-' || e.key === '_') this.zoom(0.8);
      else if (e.key === '0') this.fit();
      else handled = this.key(e);
      if (handled) e.preventDefault();
    });
  }
}
