/**
 * The host side of the layout visualizer: one WebviewPanel, reused, with a strict CSP, a fresh
 * nonce per load, resources only from dist/ and webview/media/, and every message validated
 * (protocol/src/webview.ts) in both directions.
 */
import * as vscode from 'vscode';
import type { Range } from '../../../protocol/src/lsp';
import {
  validateHostToWebview,
  validateWebviewToHost,
  type ExportMessage,
  type HostToWebviewMessage,
  type ShowShapeMessage,
} from '../../../protocol/src/webview';
import { createNonce, visualizerHtml } from './html';

const VIEW_TYPE = 'xlaLayout.visualizer';

class VisualizerPanel {
  private current: ShowShapeMessage;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly extensionUri: vscode.Uri,
    show: ShowShapeMessage,
    private readonly onDispose: () => void,
  ) {
    this.current = show;
    this.disposables.push(
      panel.webview.onDidReceiveMessage((raw: unknown) => this.receive(raw)),
      panel.onDidDispose(() => this.dispose()),
    );
    this.load();
  }

  /** Shows a new shape in the existing page and brings the panel forward. */
  show(message: ShowShapeMessage): void {
    this.current = message;
    this.panel.title = panelTitle(message.shape);
    this.post(message);
    this.panel.reveal(undefined, true);
  }

  /** (Re)writes the page; called once per panel: VS Code reloads it itself when it becomes visible again. */
  private load(): void {
    const webview = this.panel.webview;
    this.panel.title = panelTitle(this.current.shape);
    webview.html = visualizerHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: webview
        .asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview.js'))
        .toString(),
      styleUri: webview
        .asWebviewUri(vscode.Uri.joinPath(this.extensionUri, 'webview', 'media', 'visualizer.css'))
        .toString(),
    });
  }

  private post(message: HostToWebviewMessage): void {
    // The outgoing side is validated too: it carries document text and must keep the shape the page expects.
    const checked = validateHostToWebview(message);
    if (!checked.ok) {
      void vscode.window.showErrorMessage(`XLA Layout: cannot show this shape (${checked.error}).`);
      return;
    }
    void this.panel.webview.postMessage(checked.value);
  }

  private receive(raw: unknown): void {
    const checked = validateWebviewToHost(raw);
    if (!checked.ok) {
      console.warn(`XLA Layout visualizer: ignored a malformed message: ${checked.error}`);
      return;
    }
    const message = checked.value;
    switch (message.type) {
      case 'ready':
        // A (re)loaded page asks for its content; the panel always knows the latest shape.
        this.post(this.current);
        break;
      case 'reveal':
        void this.reveal();
        break;
      case 'export':
        void this.save(message);
        break;
    }
  }

  private async reveal(): Promise<void> {
    const source = this.current.source;
    if (source?.uri === undefined) return;
    const editor = await vscode.window.showTextDocument(vscode.Uri.parse(source.uri, true), {
      viewColumn: vscode.ViewColumn.One,
      preserveFocus: false,
    });
    if (source.range !== undefined) {
      const { start, end } = source.range;
      const range = new vscode.Range(start.line, start.character, end.line, end.character);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  private async save(message: ExportMessage): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder !== undefined ? vscode.Uri.joinPath(folder, message.fileName) : undefined,
      filters: message.format === 'png' ? { 'PNG image': ['png'] } : { 'SVG image': ['svg'] },
      title: 'Export layout picture',
    });
    if (target === undefined) {
      this.post({ type: 'exportResult', ok: false, detail: 'Export cancelled.' });
      return;
    }
    try {
      const bytes =
        message.format === 'png' ? decodeBase64(message.data) : new TextEncoder().encode(message.data);
      await vscode.workspace.fs.writeFile(target, bytes);
      this.post({ type: 'exportResult', ok: true, detail: target.fsPath || target.toString() });
    } catch (error) {
      this.post({
        type: 'exportResult',
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      });
    }
  }

  private dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDispose();
  }
}

/** atob exists in Node 16+ and in the browser extension host, so no Buffer is needed. */
function decodeBase64(data: string): Uint8Array {
  const text = atob(data);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function panelTitle(shape: string): string {
  const compact = shape.length > 40 ? `${shape.slice(0, 39)}…` : shape;
  return `Layout: ${compact}`;
}

/** `model.hlo:12` from a URI and a range, for the page's "source" line. */
function sourceName(uri: string, range: Range | undefined): string {
  const path = vscode.Uri.parse(uri, true).path;
  const base = path.slice(path.lastIndexOf('/') + 1) || uri;
  return range !== undefined ? `${base}:${range.start.line + 1}` : base;
}

/** Copies just the JSON fields, so a `vscode.Range` (with private fields) passes the validator. */
function plainRange(range: Range | undefined): Range | undefined {
  if (range === undefined) return undefined;
  return {
    start: { line: range.start.line, character: range.start.character },
    end: { line: range.end.line, character: range.end.character },
  };
}

let panel: VisualizerPanel | undefined;

/**
 * Opens the layout visualizer for `input.shape`, or shows it in the panel that is already open.
 * With `uri` (and `range`), the page offers "reveal in editor", which jumps back to that range.
 */
export function openVisualizer(
  context: vscode.ExtensionContext,
  input: { shape: string; uri?: string; range?: Range },
): void {
  const range = plainRange(input.range);
  const message: ShowShapeMessage = {
    type: 'show',
    shape: input.shape,
    ...(input.uri !== undefined
      ? { source: { name: sourceName(input.uri, range), uri: input.uri, ...(range ? { range } : {}) } }
      : {}),
  };
  if (panel !== undefined) {
    panel.show(message);
    return;
  }
  const extensionUri = context.extensionUri;
  const webviewPanel = vscode.window.createWebviewPanel(
    VIEW_TYPE,
    panelTitle(input.shape),
    { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
    {
      enableScripts: true,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist'),
        vscode.Uri.joinPath(extensionUri, 'webview', 'media'),
      ],
    },
  );
  panel = new VisualizerPanel(webviewPanel, extensionUri, message, () => {
    panel = undefined;
  });
  context.subscriptions.push(webviewPanel);
}
