/**
 * Every command of the extension, in ONE table: id → (ctx) => handler. package.json's
 * `contributes.commands` lists the same ids (the extension-host suite checks they agree).
 */
import * as vscode from 'vscode';
import { openVisualizer, toggleVisualizerFollow } from './visualizer/panel';
import { parseVisualizerArgs } from './command-args';
import type { Ctx } from './ctx';
import { checkFileFromDisk } from './large-file-commands';
import { LargeFileNotice } from './large-file-notice';
import { explainOomMessage } from './oom-report';
import { memoryViewCommand } from './memory-view/command';
import { openRule, OPEN_RULE } from './rule-links';
import { openSource } from './source-files';
import { hloForSourceLine } from './source-instructions';
import { isLayoutError, type LayoutError } from '../../core/src';
import { OpenSourceCommand } from '../../protocol/src/lsp';
import { askParsed, pickArrayShape, promptShape, shapeAtCursor } from './shape-input';
import {
  explainElementAt,
  explainLinearIndex,
  OFFSET_FORMS,
  parseIndex,
  parseOffset,
  type Answer,
} from './shape-math';

type Handler = (...args: unknown[]) => unknown;

/** Shows an answer with a "Show steps" button that opens the explanation beside the editor. */
async function showAnswer(ctx: Ctx, title: string, answer: Answer | LayoutError): Promise<void> {
  if (isLayoutError(answer)) {
    void vscode.window.showErrorMessage(`XLA Layout: ${answer.message}`);
    return;
  }
  const choice = await vscode.window.showInformationMessage(answer.summary, 'Show steps');
  if (choice === 'Show steps') await ctx.steps.show(title, answer.steps);
}

async function openVisualizerCommand(ctx: Ctx, arg: unknown): Promise<void> {
  if (arg !== undefined) {
    // Arguments arrive from hover links built out of document text: validate before use.
    const args = parseVisualizerArgs(arg);
    if (args === undefined) {
      void vscode.window.showErrorMessage('XLA Layout: Open Visualizer was called with invalid arguments.');
      return;
    }
    openVisualizer(ctx, args);
    return;
  }
  const atCursor = await shapeAtCursor(ctx);
  if (atCursor !== undefined) {
    openVisualizer(ctx, atCursor);
    return;
  }
  const typed = await promptShape('XLA Layout: Open Visualizer');
  if (typed !== undefined) openVisualizer(ctx, { shape: typed.text });
}

async function linearIndexCommand(ctx: Ctx): Promise<void> {
  const picked = await pickArrayShape(ctx, 'XLA Layout: Linear Index of Element');
  if (picked === undefined) return;
  const { shape, text } = picked;
  const index = await askParsed(
    {
      title: `Linear index in ${text}`,
      prompt: `Element index, one per dimension (sizes ${shape.dims.join(' × ') || 'scalar'})`,
      placeHolder: shape.dims.map(() => '0').join(','),
    },
    (typed) => parseIndex(typed, shape),
  );
  if (index === undefined) return;
  await showAnswer(
    ctx,
    `Linear index of [${index.join(',')}] in ${text}`,
    explainLinearIndex(text, shape, index),
  );
}

async function elementAtOffsetCommand(ctx: Ctx): Promise<void> {
  const picked = await pickArrayShape(ctx, 'XLA Layout: Element at Offset');
  if (picked === undefined) return;
  const { shape, text } = picked;
  const offset = await askParsed(
    {
      title: `Element at offset in ${text}`,
      prompt: `Offset from the start of the buffer, padding included: ${OFFSET_FORMS}`,
      placeHolder: '17 or byte 68',
    },
    (typed) => parseOffset(typed, shape),
  );
  if (offset === undefined) return;
  await showAnswer(ctx, `Element at offset ${offset} in ${text}`, explainElementAt(text, shape, offset));
}

/** The command table. Handlers read `ctx.client` when they run, so restarts need no re-registration. */
export const COMMANDS = {
  'xlaLayout.openVisualizer':
    (ctx: Ctx): Handler =>
    (arg) =>
      openVisualizerCommand(ctx, arg),
  'xlaLayout.toggleVisualizerFollow':
    (ctx: Ctx): Handler =>
    () =>
      toggleVisualizerFollow(ctx),
  'xlaLayout.linearIndex':
    (ctx: Ctx): Handler =>
    () =>
      linearIndexCommand(ctx),
  'xlaLayout.elementAtOffset':
    (ctx: Ctx): Handler =>
    () =>
      elementAtOffsetCommand(ctx),
  'xlaLayout.memoryView':
    (ctx: Ctx): Handler =>
    (arg) =>
      memoryViewCommand(ctx, arg),
  // The Padding Report is the Memory View: every buffer with its wasted bytes, without double counting.
  'xlaLayout.paddingReport':
    (ctx: Ctx): Handler =>
    (arg) =>
      memoryViewCommand(ctx, arg),
  'xlaLayout.checkFile':
    (ctx: Ctx): Handler =>
    (arg) =>
      checkFileFromDisk(ctx, arg instanceof vscode.Uri ? arg : undefined),
  'xlaLayout.explainOom':
    (ctx: Ctx): Handler =>
    () =>
      explainOomMessage(ctx),
  'xlaLayout.restartServer':
    (ctx: Ctx): Handler =>
    async () => {
      await ctx.restart();
      void vscode.window.setStatusBarMessage('XLA Layout: language server restarted', 3000);
    },
  'xlaLayout.showOutput':
    (ctx: Ctx): Handler =>
    () =>
      ctx.output.show(true),
  'xlaLayout.hloForSourceLine':
    (ctx: Ctx): Handler =>
    () =>
      hloForSourceLine(ctx),
  // Run by hovers' source links, with arguments; hidden from the palette.
  [OpenSourceCommand]: (): Handler => (arg) => openSource(arg),
  // Run by diagnostics' rule codes (rule-links.ts), with the code; hidden from the palette.
  [OPEN_RULE]:
    (ctx: Ctx): Handler =>
    (arg) =>
      openRule(ctx.extension, arg),
} satisfies Record<string, (ctx: Ctx) => Handler>;

/**
 * Registers every command of {@link COMMANDS}; failures are logged and shown, not thrown. Also
 * starts the notice that points users of files too large for extensions at the from-disk commands.
 */
export function registerCommands(ctx: Ctx): void {
  ctx.push(new LargeFileNotice(ctx));
  for (const [id, make] of Object.entries(COMMANDS)) {
    const handler = make(ctx);
    ctx.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        try {
          return await handler(...args);
        } catch (e) {
          ctx.output.appendLine(`${id} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          void vscode.window.showErrorMessage(
            `XLA Layout: ${id} failed: ${e instanceof Error ? e.message : String(e)}`,
          );
          return undefined;
        }
      }),
    );
  }
}
