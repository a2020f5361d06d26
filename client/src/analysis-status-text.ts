/** What the analysis status item says, from the documents under analysis (no `vscode` here: unit-tested). */
import { fileSize } from './large-file-policy';

/** A document under analysis: its size in characters (bytes for HLO, which is ASCII) and, once reported, the share done (0–1). */
export interface RunningAnalysis {
  readonly name: string;
  readonly size: number;
  readonly done?: number;
}

/** Whole percent, never 100 while running (a share below 1 rounds down). */
function percent(done: number): string {
  return `${Math.min(99, Math.floor(done * 100))}%`;
}

/** The item's text and tooltip for `running` (in the order the analyses started); undefined hides it. */
export function analysisStatusText(
  running: readonly RunningAnalysis[],
): { text: string; tooltip: string } | undefined {
  const [first] = running;
  if (!first) return undefined;
  const progress = first.done !== undefined ? ` ${percent(first.done)}` : '';
  const more = running.length > 1 ? ` (+${running.length - 1} more)` : '';
  return {
    text: `$(sync~spin) XLA: analysing ${first.name}${progress}${more}`,
    tooltip: `XLA Layout Lens is analysing ${running.map((r) => `${r.name} (${fileSize(r.size)}${r.done !== undefined ? `, ${percent(r.done)} done` : ''})`).join(', ')}`,
  };
}
