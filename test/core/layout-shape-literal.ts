/**
 * Test helper: builds an ArrayShape straight from shape text for the layout-math tests, so they do
 * not depend on the real parser (written in parallel). Handles only the well-formed subset the tests
 * use: `type[d,<=d,...]{m2m:T(..)(..)L(n)E(n)S(n)SC(d:i,..)M(n)}`.
 */
import type { ArrayShape, SplitConfig, TileDim } from '../../core/src/model';

export function shapeOf(text: string): ArrayShape {
  const m = /^([a-z0-9]+)\[([^\]]*)\](?:\{([^}]*)\})?$/.exec(text.replace(/\s+/g, ''));
  if (!m) throw new Error(`test helper cannot read ${text}`);
  const dimsText = m[2] === '' ? [] : m[2].split(',');
  const dims = dimsText.map((d) => BigInt(d.replace('<=', '')));
  const dynamic = dimsText.map((d) => (d.startsWith('<=') ? ('bounded' as const) : ('static' as const)));
  const layout = m[3] ?? '';
  const colon = layout.indexOf(':');
  const order = colon < 0 ? layout : layout.slice(0, colon);
  const attrs = colon < 0 ? '' : layout.slice(colon + 1);
  const minorToMajor =
    m[3] === undefined
      ? dims.map((_, i) => dims.length - 1 - i)
      : order === ''
        ? []
        : order.split(',').map(Number);
  const tiles: TileDim[][] = [];
  const t = /^T((?:\([^)]*\))+)/.exec(attrs);
  if (t) {
    for (const tm of t[1].matchAll(/\(([^)]*)\)/g)) {
      tiles.push(tm[1].split(',').map((x) => (x === '*' ? 'combine' : BigInt(x))));
    }
  }
  const num = (letter: string): string | undefined =>
    new RegExp(`(?:^|\\))${letter}\\((\\d+)\\)`).exec(attrs.replace(/^T(\([^)]*\))+/, ')'))?.[1];
  const splitConfigs: SplitConfig[] = [];
  const sc = /SC((?:\(\d+:[\d,]*\))+)/.exec(attrs);
  if (sc) {
    for (const s of sc[1].matchAll(/\((\d+):([\d,]*)\)/g)) {
      splitConfigs.push({ dimension: Number(s[1]), indices: s[2].split(',').filter(Boolean).map(BigInt) });
    }
  }
  return {
    elementType: m[1],
    dims,
    dynamic,
    minorToMajor,
    tiles,
    elementSizeBits: Number(num('E') ?? 0),
    tailPaddingAlignment: BigInt(num('L') ?? 1),
    memorySpace: Number(num('S') ?? 0),
    splitConfigs,
    dynamicMetadataBytes: BigInt(num('M') ?? 0),
  };
}
