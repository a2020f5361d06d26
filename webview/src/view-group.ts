/**
 * Views that share one zoom: in compare mode the two logical views form a group, and the two
 * memory views another. They fit together, at the smaller of their fitted scales so that both
 * show all they should, and a zoom or pan in one is followed by the other, so the same cell sits
 * at the same place on both sides.
 */
import type { CanvasView, FitMode } from './canvas-view';

export class ViewGroup {
  constructor(private readonly views: readonly CanvasView[]) {
    for (const v of views) v.group = this;
  }

  /** Fits every view at one scale: the smallest any of them needs for `mode`. */
  fit(mode: FitMode): void {
    const scale = Math.min(...this.views.map((v) => v.fitScaleFor(mode)));
    for (const v of this.views) v.fitAt(scale, mode);
  }

  /** `source` was zoomed or panned: the others take over its view. */
  follow(source: CanvasView): void {
    for (const v of this.views) if (v !== source) v.adopt(source);
  }

  /** Each view goes back to zooming on its own. */
  dissolve(): void {
    for (const v of this.views) v.group = undefined;
  }
}
