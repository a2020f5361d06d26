/**
 * The analysis of a whole document (on open, and on every open document when a setting the
 * analysis depends on changes), in slices that yield to the event loop. A large document gets
 * progress notifications around it; one that was just opened has no diagnostics on screen yet, so
 * from time to time the diagnostics of the statements analysed so far are published (the top of
 * the file first, where the editor opens it), each publish replacing the one before, until the
 * caller publishes them all. Looks come 100 ms apart until one shows something, then the waits
 * grow threefold (300, 900 ms, ...): the first screenful of squiggles soon, and few publishes of a
 * list that grows to thousands.
 */
import type { Connection } from 'vscode-languageserver';
import { AnalysisProgressNotification, type AnalysisProgressParams } from '../../protocol/src/lsp';
import type { Analyzer } from './analyzer';
import { pause } from './clock';
import type { HloDocument } from './document';
import type { DiagnosticsPublisher } from './publisher';

/** Documents above this size (UTF-16 units) get progress notifications around full analyses. */
export const LARGE_DOCUMENT = 5 * 1024 * 1024;
/** First wait before diagnostics found so far are published. */
const PARTIAL_DIAGNOSTICS_MS = 100;
/** How often a large document's analysis reports how far it got. */
const PROGRESS_MS = 100;

export interface WholeAnalysisOptions {
  readonly partialDiagnosticsMs?: number;
  readonly progressMs?: number;
}

/**
 * Analyses `doc` whole. With `analyzer` (a settings change) the diagnostics on screen stay until the
 * caller publishes the new ones; without, a large document's diagnostics are published as found.
 */
export async function analyzeWhole(
  doc: HloDocument,
  env: {
    readonly connection: Connection;
    readonly publisher: DiagnosticsPublisher;
    readonly options: WholeAnalysisOptions;
  },
  analyzer?: Analyzer,
): Promise<void> {
  const { connection, publisher, options } = env;
  const size = doc.text.length;
  const large = size > LARGE_DOCUMENT;
  const progress = (state: AnalysisProgressParams['state'], done?: number) =>
    void connection.sendNotification(AnalysisProgressNotification, {
      uri: doc.uri,
      state,
      size,
      ...(done !== undefined ? { done } : {}),
    });
  const partial = large && analyzer === undefined;
  const progressMs = options.progressMs ?? PROGRESS_MS;
  let wait = options.partialDiagnosticsMs ?? PARTIAL_DIAGNOSTICS_MS;
  let due = Date.now() + wait;
  let shown = 0;
  let reported = Date.now();
  const slice = async (statementsDone: number): Promise<void> => {
    if (large && Date.now() - reported >= progressMs) {
      progress('progress', statementsDone / doc.statementCount);
      reported = Date.now();
    }
    // Published only when there is more to show than last time (with warnings turned off, maybe
    // nothing); the wait grows once something is shown, and is kept between looks either way.
    if (partial && Date.now() >= due) {
      const before = shown;
      shown = publisher.publishFoundSoFar(doc, shown);
      if (shown > before) wait *= 3;
      due = Date.now() + wait;
    }
    await pause();
  };
  if (large) progress('started');
  try {
    await doc.analyze(slice, analyzer);
  } finally {
    if (large) progress('finished');
  }
}
