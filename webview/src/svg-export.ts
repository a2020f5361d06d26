/**
 * SVG export of the visible region: rectangles, labels and tile borders written from the same
 * GridWindow the canvas drew. All text (labels, the shape in the title) is XML-escaped.
 */
import { BOTTOM, EMPTY, LEFT, OTHER, PADDING, RIGHT, TOP, type GridWindow } from './grid-window';
import type { Theme } from './theme';

/** Escapes text for XML content and attribute values. */
function escapeXml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!,
  );
}

/** One grid to export, with its title line. */
export interface SvgPart {
  readonly title: string;
  readonly window: GridWindow;
}

const CELL = 32;
const TITLE = 24;
const GAP = 16;

/** The legend's swatches and words, as in the page (webview/src/legend.ts). */
function legendSvg(theme: Theme, top: number): { svg: string; height: number } {
  const entries: [string, string][] = [
    [`fill="${theme.tiles[0].css}"`, 'element (colour: its first-level tile)'],
    ['fill="url(#hatch)"', 'padding'],
    [`fill="${theme.otherSlice.css}"`, 'element of another slice (memory)'],
    [`fill="none" stroke="${theme.tileBorder.css}" stroke-width="2"`, 'first-level tile'],
  ];
  const out = entries.map(
    ([fill, text], i) =>
      `<rect x="${GAP}" y="${top + i * 20}" width="28" height="14" ${fill}/><text x="${GAP + 36}" y="${top + i * 20 + 11}" font-size="12" fill="${theme.foreground.css}">${escapeXml(text)}</text>`,
  );
  return { svg: out.join('\n'), height: entries.length * 20 };
}

/**
 * An SVG document of the given grids, stacked vertically, cells 32 units wide, under `header`
 * lines (the shapes and their cost) and above the legend.
 */
export function windowsToSvg(
  parts: readonly SvgPart[],
  theme: Theme,
  header: readonly string[] = [],
): string {
  const longest = Math.max(0, ...header.map((h) => h.length)) * 8;
  const width = Math.max(longest, Math.max(1, ...parts.map((p) => p.window.cols)) * CELL) + 2 * GAP;
  const out: string[] = [];
  let y = GAP;
  for (const line of header) {
    out.push(
      `<text x="${GAP}" y="${y + 14}" font-size="13" font-weight="bold" fill="${theme.foreground.css}">${escapeXml(line)}</text>`,
    );
    y += 20;
  }
  if (header.length > 0) y += GAP / 2;
  for (const part of parts) {
    out.push(
      `<text x="${GAP}" y="${y + 16}" font-size="14" fill="${theme.foreground.css}">${escapeXml(part.title)}</text>`,
    );
    y += TITLE;
    out.push(gridSvg(part.window, theme, GAP, y));
    y += part.window.rows * CELL + GAP;
  }
  const legend = legendSvg(theme, y);
  out.push(legend.svg);
  y += legend.height + GAP;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${y}" viewBox="0 0 ${width} ${y}" font-family="${escapeXml(theme.fontFamily)}">`,
    '<defs><pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">',
    `<line x1="0" y1="0" x2="0" y2="8" stroke="${theme.padding.css}" stroke-width="2"/></pattern></defs>`,
    `<rect width="100%" height="100%" fill="${theme.background.css}"/>`,
    ...out,
    '</svg>',
  ].join('\n');
}

function gridSvg(win: GridWindow, theme: Theme, left: number, top: number): string {
  const out: string[] = [];
  for (let r = 0; r < win.rows; r++) {
    for (let c = 0; c < win.cols; c++) {
      const i = r * win.cols + c;
      const code = win.colour[i];
      if (code === EMPTY) continue;
      const x = left + c * CELL;
      const y = top + r * CELL;
      const fill =
        code >= 0
          ? theme.tiles[code].css
          : code === PADDING
            ? 'url(#hatch)'
            : code === OTHER
              ? theme.otherSlice.css
              : 'none';
      out.push(
        `<rect x="${x}" y="${y}" width="${CELL}" height="${CELL}" fill="${fill}" stroke="${theme.grid.css}" stroke-width="0.5"/>`,
      );
      const label = win.labels[i];
      if (label !== '' && code !== PADDING) {
        const size = Math.min(12, (CELL - 4) / (label.length * 0.62));
        out.push(
          `<text x="${x + CELL / 2}" y="${y + CELL / 2}" font-size="${size.toFixed(1)}" text-anchor="middle" dominant-baseline="central" fill="${theme.foreground.css}">${escapeXml(label)}</text>`,
        );
      }
    }
  }
  win.borders.forEach((bits, level) => {
    const path: string[] = [];
    for (let r = 0; r < win.rows; r++) {
      for (let c = 0; c < win.cols; c++) {
        const b = bits[r * win.cols + c];
        const x = left + c * CELL;
        const y = top + r * CELL;
        if (b & RIGHT) path.push(`M${x + CELL} ${y}v${CELL}`);
        if (b & BOTTOM) path.push(`M${x} ${y + CELL}h${CELL}`);
        if (b & LEFT) path.push(`M${x} ${y}v${CELL}`);
        if (b & TOP) path.push(`M${x} ${y}h${CELL}`);
      }
    }
    if (path.length === 0) return;
    const colour = level === 0 ? theme.tileBorder.css : theme.subTileBorder.css;
    const dash = level === 0 ? '' : ' stroke-dasharray="4 3"';
    out.push(
      `<path d="${path.join('')}" fill="none" stroke="${colour}" stroke-width="${level === 0 ? 2 : 1.5}"${dash}/>`,
    );
  });
  return out.join('\n');
}
