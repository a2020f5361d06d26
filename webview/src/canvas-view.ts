/**
 * A pannable, zoomable canvas over a grid: device-pixel-ratio aware sizing, drawing batched into
 * one requestAnimationFrame, the grid on one canvas and hover / selection on a transparent canvas
 * stacked above it (so pointer moves never redraw the grid, and nothing is copied between canvases),
 * and mouse, wheel and keyboard handling shared by the logical and memory views.
 */
import type { Theme } from './theme';
import { Viewport } from './viewport';

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
  private fitted = false;
  private drag: { x: number; y: number; moved: boolean } | undefined;
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
    this.listen();
  }

  /** Largest cell size used when fitting the grid to the canvas. */
  protected abstract fitCap(): number;
  /** Whether fitting needs only the grid's width to fit (long strips scroll down instead). */
  protected fitWidthOnly(): boolean {
    return false;
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
    if (refit) this.fitted = false;
    this.fitIfSized();
    this.invalidate();
  }

  /** Fits the whole grid into the canvas. */
  fit(): void {
    this.vp.fit(this.fitCap(), this.fitWidthOnly());
    this.invalidate();
  }

  /** Zooms around the selected cell when it is on screen, else around the centre. */
  zoom(factor: number): void {
    const anchor = this.zoomAnchor();
    const vp = this.vp;
    const ax = anchor !== undefined ? vp.toScreenX(anchor.col + 0.5) : -1;
    const ay = anchor !== undefined ? vp.toScreenY(anchor.row + 0.5) : -1;
    if (ax >= 0 && ax <= vp.width && ay >= 0 && ay <= vp.height) vp.zoomAt(factor, ax, ay);
    else vp.zoomAt(factor, vp.width / 2, vp.height / 2);
    this.invalidate();
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

  private fitIfSized(): void {
    if (!this.fitted && this.vp.width > 0 && this.vp.height > 0) {
      this.vp.fit(this.fitCap(), this.fitWidthOnly());
      this.fitted = true;
    }
  }

  private resize(): void {
    const rect = this.host.getBoundingClientRect();
    const width = Math.floor(rect.width);
    const height = Math.floor(rect.height);
    // A hidden view (display: none) measures 0: keep the last real size rather than fit to nothing.
    if (width <= 0 || height <= 0 || (width === this.vp.width && height === this.vp.height)) return;
    const dpr = window.devicePixelRatio || 1;
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(width * dpr);
      c.height = Math.round(height * dpr);
      c.style.width = `${width}px`;
      c.style.height = `${height}px`;
    }
    this.vp.width = width;
    this.vp.height = height;
    this.fitIfSized();
    this.invalidate();
  }

  private draw(): void {
    const ctx = this.canvas.getContext('2d');
    const top = this.overlay.getContext('2d');
    if (ctx === null || top === null || this.vp.width === 0) return;
    const dpr = this.canvas.width / this.vp.width;
    let redrewBase = false;
    if (!this.baseValid) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.fillStyle = this.theme.background.css;
      ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      this.renderBase(ctx);
      this.baseValid = true;
      redrewBase = true;
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
          this.invalidate();
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
        this.invalidate();
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
