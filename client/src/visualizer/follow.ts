/**
 * Following the editor, as the Markdown preview does while unlocked: when the cursor of the active
 * HLO editor rests on a shape, the visualizer shows it. The server says where shapes are (the
 * `xlaLayout/analyzeShape` request the commands use); on a tuple, the element under the cursor is
 * shown, and the whole tuple (whose elements the page lists to pick) when the cursor is on none.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { AnalyzeShapeRequest, type AnalyzeShapeParams, type Range } from '../../../protocol/src/lsp';
import { shapeForCursor } from './cursor-shape';

/** Cursor moves closer together than this are one move (typing, holding an arrow key). */
const SETTLE_MS = 150;

/** A shape found in a document. */
export interface FoundShape {
  readonly shape: string;
  readonly uri: string;
  readonly range: Range;
}

/** Asks the server for the shape at `position` of `document`; undefined when there is none. */
async function shapeAt(
  client: BaseLanguageClient,
  document: vscode.TextDocument,
  position: vscode.Position,
): Promise<FoundShape | undefined> {
  const params: AnalyzeShapeParams = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(document.uri) },
    position: client.code2ProtocolConverter.asPosition(position),
  };
  const result = await client.sendRequest(AnalyzeShapeRequest, params);
  if (result === null || typeof result.text !== 'string') return undefined;
  const { shape, range, cut } = shapeForCursor(result, params.position);
  const text = cut ? document.getText(client.protocol2CodeConverter.asRange(range)) : shape;
  return { shape: text, range, uri: params.textDocument.uri };
}

/** Watches the active editor's cursor and reports the shape it rests on, once per settled move. */
export class EditorFollower implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Counts cursor moves: an answer for an older move than the latest is dropped. */
  private moves = 0;

  constructor(
    private readonly client: () => BaseLanguageClient | undefined,
    private readonly onShape: (found: FoundShape) => void,
    private readonly onError: (error: unknown) => void,
  ) {
    this.disposables.push(
      vscode.window.onDidChangeTextEditorSelection((e) => this.moved(e.textEditor)),
      vscode.window.onDidChangeActiveTextEditor((editor) => {
        if (editor !== undefined) this.moved(editor);
      }),
    );
  }

  private moved(editor: vscode.TextEditor): void {
    if (editor.document.languageId !== 'hlo') return;
    const move = ++this.moves;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.look(editor, move), SETTLE_MS);
  }

  private async look(editor: vscode.TextEditor, move: number): Promise<void> {
    this.timer = undefined;
    const client = this.client();
    if (client === undefined) return;
    try {
      const found = await shapeAt(client, editor.document, editor.selection.active);
      if (found !== undefined && move === this.moves) this.onShape(found);
    } catch (e) {
      this.onError(e);
    }
  }

  dispose(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
