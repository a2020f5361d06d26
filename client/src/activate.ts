/**
 * Activation shared by the Node and browser entries: they differ only in how the LanguageClient
 * reaches its server, which they pass in as a {@link ClientFactory}.
 */
import * as vscode from 'vscode';
import { registerCommands } from './commands';
import { CONFIG_SECTION, settingsJson } from '../../protocol/src/settings';
import { readConfig } from './config';
import { Ctx, type ClientFactory } from './ctx';
import { BufferAssignments } from './memory-view/buffer-assignments';
import { registerMemoryViewSerializer } from './memory-view/panel';
import { LevelledHoverProvider, verboseHoverClass } from './hover-verbosity';
import { OutlineStatus } from './outline-status';
import { AnalysisStatus } from './status';

let ctx: Ctx | undefined;

/** Builds the context, registers commands and the status items, then starts the server. */
export async function activateWith(
  extension: vscode.ExtensionContext,
  createClient: ClientFactory,
): Promise<void> {
  const c = new Ctx(extension, createClient);
  ctx = c;
  registerCommands(c);
  const VerboseHover = verboseHoverClass();
  if (VerboseHover !== undefined)
    c.push(
      vscode.languages.registerHoverProvider(
        { language: 'hlo' },
        new LevelledHoverProvider(() => c.client, VerboseHover),
      ),
    );
  const status = new AnalysisStatus();
  c.push(status);
  c.onClient((client) => status.attach(client));
  const outline = new OutlineStatus();
  c.push(outline);
  c.onClient((client) => outline.attach(client));
  registerMemoryViewSerializer(c);
  const assignments = new BufferAssignments(c);
  c.push(assignments);
  c.onClient((client) => assignments.attach(client));
  logSettings(c);
  c.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(CONFIG_SECTION)) logSettings(c);
    }),
  );
  await c.start();
}

/**
 * Writes the settings the server uses (for bug reports) and any mistakes in them (each clamped to
 * its schema or ignored) to the output channel.
 */
function logSettings(c: Ctx): void {
  const { settings, problems } = readConfig();
  c.output.appendLine(`Settings: ${JSON.stringify(settingsJson(settings))}`);
  for (const problem of problems) c.output.appendLine(`Warning: ${problem}`);
}

/** Stops the server and disposes everything; VS Code awaits the returned promise. */
export async function deactivateCtx(): Promise<void> {
  const c = ctx;
  ctx = undefined;
  await c?.dispose();
}
