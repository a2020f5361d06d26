/**
 * The host side of the Memory View: one WebviewPanel, reused, with the visualizer's strict CSP and
 * a fresh nonce, resources only from dist/ and webview/media/, every message validated
 * (protocol/src/memory.ts) in both directions, and a serializer that shows the same dump again
 * after VS Code reloads. A row of the page opens its instruction in the HLO, or its source line.
 */
import * as vscode from 'vscode';
import {
  ValueSizeCache,
  companionKind,
  type InstructionPlaceJson,
  type MemoryModuleJson,
  type MemoryValueJson,
} from '../../../core/src';
import { OpenSourceCommand, type OpenSourceArgs } from '../../../protocol/src/lsp';
import {
  validateMemoryToHost,
  type HostToMemoryMessage,
  type MemoryToHostMessage,
  type FolderModule,
  type ShowFolderMessage,
  type ShowMemoryMessage,
} from '../../../protocol/src/memory';
import { createNonce } from '../visualizer/html';
import type { Ctx } from '../ctx';
import { fileName } from '../file-name';
import { memoryViewHtml } from './html';
import { isFailure, loadMemory, type DumpFiles } from './load';

const MEMORY_VIEW_TYPE = 'xlaLayout.memoryView';

/** What a shown dump came to, for callers that check it (the extension-host suite does). */
export interface MemoryViewResult {
  readonly uri: vscode.Uri;
  readonly basis: MemoryModuleJson['basis'];
  readonly totalBytes: string;
  readonly allocations: number;
  readonly values: number;
}

/** The folder of `uri`. */
function folderOf(uri: vscode.Uri): vscode.Uri {
  return uri.with({ path: uri.path.slice(0, uri.path.lastIndexOf('/')) || '/' });
}

/** The source file a dump's metadata names, as a URI: absolute, with a scheme, or relative to the dump. */
function sourceUri(path: string, dump: vscode.Uri): vscode.Uri {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(path)) return vscode.Uri.parse(path);
  if (path.startsWith('/') || /^[a-z]:[\\/]/i.test(path)) return vscode.Uri.file(path);
  return vscode.Uri.joinPath(folderOf(dump), path);
}

async function isFolder(uri: vscode.Uri): Promise<boolean> {
  try {
    return ((await vscode.workspace.fs.stat(uri)).type & vscode.FileType.Directory) !== 0;
  } catch {
    return false;
  }
}

/**
 * The modules of a dump folder, one URI each: its buffer assignments (which find their dump and
 * other companions by name), else its optimized HLO dumps (estimated).
 */
async function folderDumps(folder: vscode.Uri): Promise<vscode.Uri[]> {
  const names = (await vscode.workspace.fs.readDirectory(folder))
    .filter(([, type]) => (type & vscode.FileType.File) !== 0)
    .map(([name]) => name)
    .sort();
  const assigned = names.filter((n) => companionKind(n) === 'buffer-assignment');
  const chosen =
    assigned.length > 0 ? assigned : names.filter((n) => /after_optimizations\.(txt|hlo)$/.test(n));
  return chosen.map((n) => vscode.Uri.joinPath(folder, n));
}

function descending(a: string | undefined, b: string | undefined): number {
  const x = BigInt(a ?? 0);
  const y = BigInt(b ?? 0);
  return x === y ? 0 : x > y ? -1 : 1;
}

/** Largest total first, then largest peak, then most padding (as `xla-layout memory` ranks them). */
function byFolderCost(a: FolderModule, b: FolderModule): number {
  return (
    descending(a.totalBytes, b.totalBytes) ||
    descending(a.peakBytes, b.peakBytes) ||
    descending(a.paddingBytes, b.paddingBytes)
  );
}

/** Where an instruction is written and the source line it comes from, as the model gives them. */
type InstructionPlace = Pick<InstructionPlaceJson, 'line' | 'column' | 'sourceFile' | 'sourceLine'>;

class MemoryViewPanel {
  private shown: { message: ShowMemoryMessage; files: DumpFiles } | undefined;
  /** The folder last shown, and each ranked module's dump. */
  private folder: { message: ShowFolderMessage; uris: vscode.Uri[] } | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    readonly panel: vscode.WebviewPanel,
    private readonly ctx: Ctx,
    private readonly sizes: ValueSizeCache,
    private readonly onDispose: () => void,
  ) {
    const webview = panel.webview;
    webview.options = { enableScripts: true, localResourceRoots: resourceRoots(ctx.extension.extensionUri) };
    webview.html = memoryViewHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview
        .asWebviewUri(vscode.Uri.joinPath(ctx.extension.extensionUri, 'dist', 'memory-view.js'))
        .toString(),
      styleUri: webview
        .asWebviewUri(vscode.Uri.joinPath(ctx.extension.extensionUri, 'webview', 'media', 'memory-view.css'))
        .toString(),
    });
    this.disposables.push(
      webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
  }

  /**
   * Reads a dump folder's modules and shows them ranked by XLA's total, then peak, then padding;
   * a row opens its module.
   */
  private async showFolder(folder: vscode.Uri): Promise<undefined> {
    this.panel.title = `Memory: ${fileName(folder)}/`;
    await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `XLA Layout: memory of the modules in ${fileName(folder)}`,
        cancellable: true,
      },
      async (progress, token) => {
        const dumps = await folderDumps(folder);
        const read: { uri: vscode.Uri; module: FolderModule }[] = [];
        for (const [i, uri] of dumps.entries()) {
          if (token.isCancellationRequested) return;
          progress.report({ message: `${i + 1} of ${dumps.length}: ${fileName(uri)}` });
          const loaded = await loadMemory(uri, undefined, this.sizes, progress, token);
          if (isFailure(loaded)) {
            this.ctx.output.appendLine(`Memory View of ${uri.toString()}: ${loaded.failed}`);
            continue;
          }
          const m = loaded.model;
          read.push({
            uri: loaded.files.hlo ?? uri,
            module: {
              module: m.module,
              name: loaded.name,
              basis: m.basis,
              totalBytes: m.totalBytes,
              ...(m.peak ? { peakBytes: m.peak.bytes } : {}),
              paddingBytes: m.paddingBytes,
              allocations: m.allocations.length,
            },
          });
        }
        read.sort((a, b) => byFolderCost(a.module, b.module));
        const message: ShowFolderMessage = {
          type: 'showFolder',
          uri: folder.toString(),
          name: fileName(folder),
          modules: read.map((r) => r.module),
        };
        this.shown = undefined;
        this.folder = { message, uris: read.map((r) => r.uri) };
        this.post(message);
      },
    );
    return undefined;
  }

  /** Reads the dump of `uri` and shows it; resolves with its figures, or undefined when it could not be read. */
  async show(uri: vscode.Uri, document?: vscode.TextDocument): Promise<MemoryViewResult | undefined> {
    if (document === undefined && (await isFolder(uri))) return this.showFolder(uri);
    this.panel.title = `Memory: ${fileName(uri)}`;
    return vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: `XLA Layout: memory of ${fileName(uri)}`,
        cancellable: true,
      },
      async (progress, token) => {
        const loaded = await loadMemory(uri, document, this.sizes, progress, token);
        if (isFailure(loaded)) {
          this.post({
            type: 'error',
            message: `XLA Layout could not read ${fileName(uri)}: ${loaded.failed}`,
          });
          return undefined;
        }
        const message: ShowMemoryMessage = {
          type: 'show',
          uri: (loaded.files.hlo ?? uri).toString(),
          name: loaded.name,
          files: Object.values(loaded.files.companions).map((u) => fileName(u)),
          module: loaded.model,
        };
        this.shown = { message, files: loaded.files };
        this.panel.title = `Memory: ${loaded.model.module || loaded.name}`;
        this.post(message);
        this.ctx.output.appendLine(`Memory View of ${uri.toString()}: ${loaded.model.headline.memory}`);
        return {
          uri,
          basis: loaded.model.basis,
          totalBytes: loaded.model.totalBytes,
          allocations: loaded.model.allocations.length,
          values: loaded.model.valueCount,
        };
      },
    );
  }

  reveal(): void {
    this.panel.reveal(undefined, false);
  }

  private post(message: HostToMemoryMessage): void {
    void this.panel.webview.postMessage(message);
  }

  private receive(raw: unknown): void {
    const checked = validateMemoryToHost(raw);
    if (!checked.ok) {
      this.ctx.output.appendLine(`Memory View: ignored a malformed message: ${checked.error}`);
      return;
    }
    const message: MemoryToHostMessage = checked.value;
    if (message.type === 'ready') {
      // A (re)loaded page asks for its content.
      if (this.folder && !this.shown) this.post(this.folder.message);
      else if (this.shown) this.post(this.shown.message);
      return;
    }
    if ('peakGroup' in message) {
      const group = this.shown?.message.module.peak?.groups[message.peakGroup];
      if (!group) return;
      const name = group.instruction?.name ?? group.largest.position;
      if (message.type === 'reveal') void this.revealInstruction(name, group.instruction);
      else void this.openSource(group.instruction);
      return;
    }
    if (message.type === 'openModule') {
      const uri = this.folder?.uris[message.module];
      if (uri) void this.show(uri);
      return;
    }
    const value = this.valueAt(message.allocation, message.value);
    if (!value || !this.shown) return;
    if (message.type === 'reveal') void this.revealInstruction(value.name, value.instruction);
    else void this.openSource(value.instruction);
  }

  /** The value the page names, looked up in the model this panel sent. */
  private valueAt(allocation: number, position: number): MemoryValueJson | undefined {
    return this.shown?.message.module.allocations.find((a) => a.index === allocation)?.values[position];
  }

  private async revealInstruction(name: string, at: InstructionPlace | undefined): Promise<void> {
    const hlo = this.shown?.files.hlo;
    if (!hlo || !at) {
      void vscode.window.showInformationMessage(
        `XLA Layout: %${name} is not in an HLO text beside the buffer assignment.`,
      );
      return;
    }
    const start = new vscode.Position(at.line - 1, at.column - 1);
    const range = new vscode.Range(start, start.translate(0, name.length));
    const editor = await vscode.window.showTextDocument(hlo, {
      viewColumn: vscode.ViewColumn.One,
      selection: range,
      preserveFocus: false,
    });
    editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private async openSource(at: InstructionPlace | undefined): Promise<void> {
    const dump = this.shown?.files.hlo;
    if (!at?.sourceFile || !dump) return;
    // The source opens beside the dump, in the first group, keeping the Memory View in sight.
    await vscode.commands.executeCommand('workbench.action.focusFirstEditorGroup');
    const args: OpenSourceArgs = {
      uri: sourceUri(at.sourceFile, dump).toString(),
      line: Math.max(0, (at.sourceLine ?? 1) - 1),
    };
    await vscode.commands.executeCommand(OpenSourceCommand, args);
  }

  private dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDispose();
  }
}

function resourceRoots(extensionUri: vscode.Uri): vscode.Uri[] {
  return [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'webview', 'media')];
}

let current: MemoryViewPanel | undefined;

function adopt(ctx: Ctx, panel: vscode.WebviewPanel, sizes: ValueSizeCache): MemoryViewPanel {
  const view = new MemoryViewPanel(panel, ctx, sizes, () => {
    if (current === view) current = undefined;
  });
  current = view;
  return view;
}

/** Shows the memory of the dump at `uri` in the Memory View, opening it beside the editor if needed. */
export function openMemoryView(
  ctx: Ctx,
  uri: vscode.Uri,
  document?: vscode.TextDocument,
): Promise<MemoryViewResult | undefined> {
  const sizes = memorySizes(ctx);
  let view = current;
  if (view === undefined) {
    const panel = vscode.window.createWebviewPanel(
      MEMORY_VIEW_TYPE,
      `Memory: ${fileName(uri)}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      {
        enableScripts: true,
        retainContextWhenHidden: false,
        localResourceRoots: resourceRoots(ctx.extension.extensionUri),
      },
    );
    view = adopt(ctx, panel, sizes);
  } else view.reveal();
  return view.show(uri, document);
}

const caches = new WeakMap<Ctx, ValueSizeCache>();

/** One size cache per extension context: dumps of one program repeat the same shapes. */
function memorySizes(ctx: Ctx): ValueSizeCache {
  let sizes = caches.get(ctx);
  if (sizes === undefined) {
    sizes = new ValueSizeCache();
    caches.set(ctx, sizes);
  }
  return sizes;
}

/** Restores Memory Views after a reload: the page's state names the dump it showed. */
export function registerMemoryViewSerializer(ctx: Ctx): void {
  ctx.push(
    vscode.window.registerWebviewPanelSerializer(MEMORY_VIEW_TYPE, {
      async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: unknown): Promise<void> {
        const view = adopt(ctx, panel, memorySizes(ctx));
        const uri = (state as { uri?: unknown } | undefined)?.uri;
        if (typeof uri !== 'string' || uri === '') return;
        await view.show(vscode.Uri.parse(uri, true));
      },
    }),
  );
}
