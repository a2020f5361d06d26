/**
 * What the colours, the grey and the hatching mean. Each swatch is drawn by the same code and
 * theme as the pictures (a hatch cannot be a CSS colour), on a small canvas in the page and on the
 * exported PNG.
 */
import { el, replaceChildren } from './dom';
import { hatchPattern } from './grid-draw';
import { blend, type Theme } from './theme';

type Swatch = (ctx: CanvasRenderingContext2D, theme: Theme, w: number, h: number) => void;

interface Entry {
  readonly key: string;
  readonly text: string;
  readonly swatch: Swatch;
}

const ENTRIES: readonly Entry[] = [
  {
    key: 'element',
    text: 'element (colour: its first-level tile)',
    swatch: (ctx, theme, w, h) => {
      for (let i = 0; i < 4; i++) {
        ctx.fillStyle = theme.tiles[i * 2].css;
        ctx.fillRect((i * w) / 4, 0, w / 4 + 0.5, h);
      }
    },
  },
  {
    key: 'padding',
    text: 'padding',
    swatch: (ctx, theme, w, h) => {
      ctx.fillStyle = hatchPattern(ctx, theme);
      ctx.fillRect(0, 0, w, h);
    },
  },
  {
    key: 'share',
    text: 'zoomed out: the greyer, the more of it is padding',
    swatch: (ctx, theme, w, h) => {
      const steps = 8;
      for (let i = 0; i < steps; i++) {
        ctx.fillStyle = blend(theme.paddingTone, theme.tiles[0], i / (steps - 1)).css;
        ctx.fillRect((i * w) / steps, 0, w / steps + 0.5, h);
      }
    },
  },
  {
    key: 'other',
    text: 'element of another slice (memory)',
    swatch: (ctx, theme, w, h) => {
      ctx.fillStyle = theme.otherSlice.css;
      ctx.fillRect(0, 0, w, h);
    },
  },
  {
    key: 'tile-border',
    text: 'first-level tile',
    swatch: (ctx, theme, w, h) => {
      ctx.strokeStyle = theme.tileBorder.css;
      ctx.lineWidth = 2;
      ctx.strokeRect(1, 1, w - 2, h - 2);
    },
  },
  {
    key: 'sub-tile',
    text: 'later tile levels',
    swatch: (ctx, theme, w, h) => {
      ctx.strokeStyle = theme.subTileBorder.css;
      ctx.lineWidth = 1.5;
      ctx.setLineDash([3, 2]);
      ctx.strokeRect(1, 1, w - 2, h - 2);
      ctx.setLineDash([]);
    },
  },
];

const SWATCH_W = 28;
const SWATCH_H = 14;

export class Legend {
  readonly root: HTMLElement;

  constructor(private theme: Theme) {
    this.root = el('ul', { class: 'legend', id: 'legend', 'aria-label': 'Legend' });
    this.render();
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    this.render();
  }

  private render(): void {
    const dpr = window.devicePixelRatio || 1;
    const items = ENTRIES.map((entry) => {
      const canvas = el('canvas', {
        class: 'swatch',
        width: Math.round(SWATCH_W * dpr),
        height: Math.round(SWATCH_H * dpr),
        'aria-hidden': 'true',
      });
      canvas.style.width = `${SWATCH_W}px`;
      canvas.style.height = `${SWATCH_H}px`;
      const ctx = canvas.getContext('2d');
      if (ctx !== null) {
        ctx.scale(dpr, dpr);
        entry.swatch(ctx, this.theme, SWATCH_W, SWATCH_H);
      }
      return el('li', { 'data-key': entry.key }, canvas, entry.text);
    });
    replaceChildren(this.root, ...items);
  }
}

/** Draws the legend in one row (wrapping at `width`) at (x, y) for an export; returns its height. */
export function drawLegend(
  ctx: CanvasRenderingContext2D,
  theme: Theme,
  x: number,
  y: number,
  width: number,
): number {
  const font = 12;
  ctx.font = `${font}px ${theme.fontFamily}`;
  ctx.textBaseline = 'middle';
  let cx = x;
  let cy = y;
  for (const entry of ENTRIES) {
    const w = SWATCH_W + 6 + ctx.measureText(entry.text).width + 16;
    if (cx > x && cx + w > x + width) {
      cx = x;
      cy += SWATCH_H + 8;
    }
    ctx.save();
    ctx.translate(cx, cy);
    entry.swatch(ctx, theme, SWATCH_W, SWATCH_H);
    ctx.restore();
    ctx.fillStyle = theme.foreground.css;
    ctx.fillText(entry.text, cx + SWATCH_W + 6, cy + SWATCH_H / 2);
    cx += w;
  }
  return cy - y + SWATCH_H;
}
