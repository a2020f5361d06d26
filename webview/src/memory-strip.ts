/**
 * The whole buffer as one strip, byte 0 at the left: each device pixel covers an equal slice of
 * the slots and is coloured by the share of those slots that is padding (exact counts from
 * {@link SlotCounter}, never a sample), so one glance says whether padding is spread through the
 * buffer or sits at its end. The part the memory view shows is outlined; hovering reads a pixel's
 * byte range and padding share (so do the arrow keys on the focused strip); clicking, or Enter,
 * shows that place in the memory view.
 */
import { formatPercent, groupDigits, humanBytes, type LayoutSizes } from '../../core/src';
import { el } from './dom';
import type { SlotCounter } from './slot-counter';
import type { Theme } from './theme';

/** CSS pixels of the strip's height. */
const HEIGHT = 18;

export class MemoryStrip {
  readonly root: HTMLElement;
  readonly canvas: HTMLCanvasElement;
  private readonly caption: HTMLElement;
  private readonly readout: HTMLElement;
  private counter: SlotCounter | undefined;
  private sizes: LayoutSizes | undefined;
  private shown: { first: number; last: number } | undefined;
  private width = 0;
  /** The CSS pixel column the keyboard is on. */
  private cursor = 0;
  private frame = 0;
  /** Asked to show slot `offset` in the memory view. */
  onPick: ((offset: number) => void) | undefined;

  constructor(
    private theme: Theme,
    id: string,
  ) {
    this.canvas = el('canvas', {
      id: `strip-${id}`,
      class: 'strip',
      role: 'img',
      tabindex: 0,
      'aria-label': 'Where padding lies in the buffer',
    });
    this.caption = el('span', { class: 'strip-caption' });
    this.readout = el('span', { class: 'strip-readout', 'aria-live': 'polite' });
    const host = el('div', { class: 'strip-host' }, this.canvas);
    this.root = el(
      'div',
      { class: 'strip-box' },
      el('div', { class: 'strip-line' }, this.caption, this.readout),
      host,
    );
    new ResizeObserver(() => this.requestDraw()).observe(host);
    this.canvas.addEventListener('pointermove', (e) => this.hover(e.offsetX));
    this.canvas.addEventListener('pointerleave', () => (this.readout.textContent = ''));
    this.canvas.addEventListener('click', (e) => this.pick(e.offsetX));
    this.canvas.addEventListener('keydown', (e) => {
      const step = Math.max(1, Math.round(this.width / 100));
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        this.cursor = Math.min(
          this.width - 1,
          Math.max(0, this.cursor + (e.key === 'ArrowLeft' ? -step : step)),
        );
        this.hover(this.cursor);
      } else if (e.key === 'Enter') {
        this.pick(this.cursor);
      } else {
        return;
      }
      e.preventDefault();
    });
  }

  setData(counter: SlotCounter, sizes: LayoutSizes): void {
    this.counter = counter;
    this.row = undefined;
    this.sizes = sizes;
    const overhead = sizes.overhead?.value ?? 0;
    // A share that rounds to 0% is still padding (10^12 elements padded by 64 columns).
    const share = overhead > 0 && overhead < 0.0005 ? 'under 0.1%' : formatPercent(overhead);
    this.caption.textContent = `Buffer, byte 0 to ${humanBytes(sizes.physicalBytes)}: grey is padding (${share})${counter.exact ? '' : ', spread evenly as an estimate'}`;
    this.requestDraw();
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    this.row = undefined;
    this.requestDraw();
  }

  /** Outlines the slots the memory view shows. */
  setShown(first: number, last: number): void {
    if (this.shown?.first === first && this.shown.last === last) return;
    this.shown = { first, last };
    this.requestDraw();
  }

  /**
   * Draws on the next frame, after layout: the strip's width is read from the page, and reading
   * it while a new shape is being built would force a layout in the middle of the first paint.
   */
  private requestDraw(): void {
    if (this.frame !== 0) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** The slots under CSS pixel column x: [a, b). */
  private slotsAt(x: number): [number, number] {
    const total = this.counter?.total ?? 0;
    const a = Math.floor((Math.max(0, x) * total) / this.width);
    const b = Math.max(a + 1, Math.floor(((x + 1) * total) / this.width));
    return [Math.min(a, total), Math.min(b, total)];
  }

  /** Byte offset of slot `slot`: slots × bits per slot / 8, exact. */
  private byteOf(slot: number): bigint {
    const bits = BigInt(this.sizes?.elementSizeBits ?? 8);
    return (BigInt(Math.floor(slot)) * bits) / 8n;
  }

  private hover(x: number): void {
    const counter = this.counter;
    if (counter === undefined || this.width === 0) return;
    const [a, b] = this.slotsAt(x);
    if (b <= a) return;
    const padding = 1 - counter.elementsIn(a, b) / (b - a);
    const approx = counter.exact ? '' : 'about ';
    this.readout.textContent = `bytes ${groupDigits(this.byteOf(a))}–${groupDigits(this.byteOf(b) - 1n)}: ${approx}${formatPercent(padding)} padding`;
  }

  private pick(x: number): void {
    if (this.counter === undefined || this.width === 0) return;
    this.onPick?.(this.slotsAt(x)[0]);
  }

  /** The strip's colours, one per device pixel; recomputed only when the data, theme or size change. */
  private row: HTMLCanvasElement | undefined;

  private paintRow(counter: SlotCounter, n: number): HTMLCanvasElement {
    const image = new ImageData(n, 1);
    const total = counter.total;
    const { paddingTone, tiles } = this.theme;
    const data = tiles[0];
    for (let i = 0; i < n; i++) {
      // Pixels of a buffer smaller than the strip share slots; each shows the slot under its middle.
      let a = Math.floor((i * total) / n);
      let b = Math.floor(((i + 1) * total) / n);
      if (b <= a) {
        a = Math.min(total - 1, Math.floor(((i + 0.5) * total) / n));
        b = a + 1;
      }
      const t = total === 0 ? 0 : 1 - counter.elementsIn(a, b) / (b - a);
      const k = i * 4;
      image.data[k] = Math.round(paddingTone.r * t + data.r * (1 - t));
      image.data[k + 1] = Math.round(paddingTone.g * t + data.g * (1 - t));
      image.data[k + 2] = Math.round(paddingTone.b * t + data.b * (1 - t));
      image.data[k + 3] = 255;
    }
    const row = document.createElement('canvas');
    row.width = n;
    row.height = 1;
    row.getContext('2d')?.putImageData(image, 0, 0);
    return row;
  }

  private draw(): void {
    const counter = this.counter;
    const width = this.canvas.parentElement?.clientWidth ?? 0;
    if (counter === undefined || width <= 0) return;
    const dpr = window.devicePixelRatio || 1;
    const n = Math.round(width * dpr);
    if (this.width !== width || this.canvas.width !== n) {
      this.width = width;
      this.canvas.width = n;
      this.canvas.height = Math.round(HEIGHT * dpr);
      this.canvas.style.width = `${width}px`;
      this.canvas.style.height = `${HEIGHT}px`;
      this.row = undefined;
    }
    const ctx = this.canvas.getContext('2d');
    if (ctx === null) return;
    this.row ??= this.paintRow(counter, n);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(this.row, 0, 0, n, this.canvas.height);
    const total = counter.total;
    const shown = this.shown;
    if (shown !== undefined && total > 0) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const left = Math.min(width - 2, Math.floor((shown.first / total) * width));
      const right = Math.max(left + 2, Math.ceil((shown.last / total) * width));
      ctx.strokeStyle = this.theme.selection.css;
      ctx.lineWidth = 2;
      ctx.strokeRect(left + 1, 1, Math.min(width - 1, right) - left - 1, HEIGHT - 2);
      ctx.setTransform(1, 0, 0, 1, 0, 0);
    }
    this.canvas.dataset.drawn = String(Number(this.canvas.dataset.drawn ?? 0) + 1);
  }
}
