/**
 * XLA Layout Lens core: the whole public API in one place. Pure TypeScript with no editor, Node or
 * DOM dependencies, shared by the language server, the webview and the command-line tool.
 *
 * - Shapes: {@link parseShapeText}, {@link parseShape}, {@link scanShapes} (shapes inside HLO text),
 *   {@link validateShape}, {@link createShapeChecker} (memoised), {@link toArrayShape}, {@link printShape}.
 * - Layout math on an {@link ArrayShape}: tiling plan, linear index and inverse, sizes, padding,
 *   memory maps (see `./layout`).
 * - HLO modules: statements, computations, instructions and their symbols (see `./hlo`).
 * - {@link explainShapeText}: everything the core knows about one shape, for UIs.
 * - Streaming reports over HLO text of any size: check, padding report, out-of-memory messages
 *   (see `./report`).
 * - What a dump really allocates: readers of XLA's buffer assignment and its companions, and the
 *   memory model joining them to the HLO (see `./memory`).
 *
 * The server, client, webview, CLI and protocol import core from here only (a lint rule holds it).
 */
export * from './diagnostics';
export * from './primitive-types';
export type * from './ast';
export type * from './model';
export * from './parse';
export * from './validate';
export { toArrayShape } from './to-model';
export { printShape, printLayout, printTile, type PrintOptions } from './print';
export {
  bytesWithUnit,
  articleFor,
  counted,
  elide,
  elideList,
  formatFactor,
  formatPercent,
  groupDigits,
  humanBytes,
} from './format';
export { detach } from './detach';
export * from './layout';
export * from './hlo';
export * from './explain';
export { arrayVerdict, tupleVerdict, type Markup } from './verdict';
export * from './report';
export * from './memory';
