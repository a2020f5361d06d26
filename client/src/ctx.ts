/**
 * The extension's state, owned in one place (rust-analyzer style): the output channel, the running
 * LanguageClient and everything that must be disposed with it. Commands receive this object and
 * read `ctx.client` at call time, so a restart swaps the client under them without re-registering.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient, LanguageClientOptions } from 'vscode-languageclient';
import { CONFIG_SECTION } from '../../protocol/src/settings';
import { hoverMiddleware } from './hover-verbosity';
import { ruleLinkMiddleware } from './rule-links';
import { goToLocalSource } from './source-files';
import { StepsDocuments } from './steps-documents';
import { OpenSourceCommand, type InitializationOptions } from '../../protocol/src/lsp';

/** Builds a LanguageClient for the host we run in (Node process or browser worker). */
export type ClientFactory = (id: string, name: string, options: LanguageClientOptions) => BaseLanguageClient;

/** Commands a hover's markdown may link to; every other `command:` link stays inert. */
const HOVER_COMMANDS = ['xlaLayout.openVisualizer', OpenSourceCommand];

export class Ctx implements vscode.Disposable {
  /** Server log and, with `xlaLayout.trace.server`, the message trace. Survives restarts. */
  readonly output: vscode.OutputChannel;
  /** Read-only markdown documents behind the "Show steps" buttons. */
  readonly steps: StepsDocuments;
  private current: BaseLanguageClient | undefined;
  /** Disposables tied to the current client (its notification handlers); dropped on restart. */
  private clientDisposables: vscode.Disposable[] = [];
  private readonly clientListeners: ((client: BaseLanguageClient) => vscode.Disposable[])[] = [];
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly extension: vscode.ExtensionContext,
    private readonly createClient: ClientFactory,
  ) {
    this.output = vscode.window.createOutputChannel('XLA Layout Lens');
    this.steps = new StepsDocuments();
    this.disposables.push(this.output, this.steps);
  }

  /** The running client, or undefined before the first start finished / after a failed start. */
  get client(): BaseLanguageClient | undefined {
    return this.current;
  }

  /** Registers something to dispose when the extension deactivates. */
  push(d: vscode.Disposable): void {
    this.disposables.push(d);
  }

  /**
   * Runs `attach` for the current client and for every client a restart creates; what it returns
   * is disposed when that client goes away (e.g. notification handlers).
   */
  onClient(attach: (client: BaseLanguageClient) => vscode.Disposable[]): void {
    this.clientListeners.push(attach);
    if (this.current) this.clientDisposables.push(...attach(this.current));
  }

  /** Starts the language server; failures are logged and shown, never thrown into activate(). */
  async start(): Promise<void> {
    const options: LanguageClientOptions = {
      // No scheme filter: untitled documents and virtual workspaces (vscode-vfs, …) work too.
      documentSelector: [{ language: 'hlo' }],
      synchronize: { configurationSection: CONFIG_SECTION },
      outputChannel: this.output,
      traceOutputChannel: this.output,
      markdown: { isTrusted: { enabledCommands: HOVER_COMMANDS }, supportHtml: false },
      middleware: { provideDefinition: goToLocalSource, ...hoverMiddleware(), ...ruleLinkMiddleware() },
      // The rules page inside the installed extension: diagnostics' code links open it.
      initializationOptions: {
        rulesDocUri: vscode.Uri.joinPath(this.extension.extensionUri, 'docs', 'rules.md').toString(),
      } satisfies InitializationOptions,
    };
    const client = this.createClient(CONFIG_SECTION, 'XLA Layout Lens', options);
    this.current = client;
    try {
      await client.start();
    } catch (e) {
      this.output.appendLine(`Language server failed to start: ${String(e)}`);
      void vscode.window.showErrorMessage(
        'XLA Layout Lens: the language server failed to start. See "XLA Layout: Show Output".',
      );
      return;
    }
    for (const attach of this.clientListeners) this.clientDisposables.push(...attach(client));
  }

  /**
   * Stops the running client (if any) and starts a fresh one with current settings. Not the
   * client's own restart(): that keeps the options it was made with, and stops the process the same way.
   */
  async restart(): Promise<void> {
    await this.stopClient();
    await this.start();
  }

  private async stopClient(): Promise<void> {
    for (const d of this.clientDisposables.splice(0)) d.dispose();
    const client = this.current;
    this.current = undefined;
    if (client === undefined) return;
    try {
      // A wedged server must not block restart forever; vscode-languageclient kills it after the timeout.
      await client.stop(2000);
    } catch (e) {
      this.output.appendLine(`Stopping the language server: ${String(e)}`);
    }
  }

  async dispose(): Promise<void> {
    await this.stopClient();
    for (const d of this.disposables.splice(0).reverse()) d.dispose();
  }
}
