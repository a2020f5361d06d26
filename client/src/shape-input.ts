/**
 * Finding the shape a command should work on: the shape under the cursor (asked from the server,
 * which knows where shapes are in HLO text), else the selected text, else an input box that
 * validates the typed shape as the user types.
 */
import * as vscode from 'vscode';
import {
  AnalyzeShapeRequest,
  type AnalyzeShapeParams,
  type AnalyzeShapeResult,
} from '../../protocol/src/lsp';
import type { Ctx } from './ctx';
import { parseArrayShape, type ParsedShape } from './shape-math';

/** A shape picked by the user, with where it came from when it came from a document. */
export interface PickedShape {
  readonly shape: string;
  readonly uri?: string;
  readonly range?: AnalyzeShapeResult['range'];
  readonly owner?: string;
}

/** Asks the server for the shape at the active editor's cursor; undefined when there is none. */
export async function shapeAtCursor(ctx: Ctx): Promise<PickedShape | undefined> {
  const editor = vscode.window.activeTextEditor;
  const client = ctx.client;
  if (editor === undefined || client === undefined || editor.document.languageId !== 'hlo') return undefined;
  const params: AnalyzeShapeParams = {
    textDocument: { uri: client.code2ProtocolConverter.asUri(editor.document.uri) },
    position: client.code2ProtocolConverter.asPosition(editor.selection.active),
  };
  try {
    const result = await client.sendRequest(AnalyzeShapeRequest, params);
    if (result === null || typeof result.text !== 'string') return undefined;
    return {
      // A long shape comes quoted by its ends; the editor holds it whole.
      shape: result.textCut
        ? editor.document.getText(client.protocol2CodeConverter.asRange(result.range))
        : result.text,
      uri: params.textDocument.uri,
      range: result.range,
      ...(result.owner !== undefined ? { owner: result.owner } : {}),
    };
  } catch (e) {
    ctx.output.appendLine(`${AnalyzeShapeRequest.method} failed: ${String(e)}`);
    return undefined;
  }
}

/** Selected text of the active editor when it is one line that looks like it could be a shape. */
function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (editor === undefined || editor.selection.isEmpty) return undefined;
  const text = editor.document.getText(editor.selection).trim();
  return text !== '' && !text.includes('\n') ? text : undefined;
}

/**
 * An input box for what `parse` reads (it returns the reason, a string, when it cannot; what it
 * reads is never a string), checking the text as the user types; undefined when cancelled.
 */
export async function askParsed<T>(
  options: Omit<vscode.InputBoxOptions, 'ignoreFocusOut' | 'validateInput'>,
  parse: (text: string) => T | string,
): Promise<T | undefined> {
  const text = await vscode.window.showInputBox({
    ...options,
    ignoreFocusOut: true,
    validateInput: (value) => {
      const r = parse(value);
      return typeof r === 'string' ? r : undefined;
    },
  });
  if (text === undefined) return undefined;
  const r = parse(text);
  return typeof r === 'string' ? undefined : r;
}

/** Input box for a shape, rejecting what the core cannot model, with the reason shown as you type. */
export function promptShape(
  title: string,
  initial?: string,
): Promise<(ParsedShape & { ok: true }) | undefined> {
  return askParsed(
    {
      title,
      prompt: 'An XLA array shape with its layout',
      placeHolder: 'f32[3,5]{1,0:T(2,2)}',
      value: initial,
    },
    (text) => {
      const parsed = parseArrayShape(text);
      return parsed.ok ? parsed : parsed.message;
    },
  );
}

/**
 * The array shape for a computing command: at the cursor when it is a usable array, else from the
 * selection or typed (pre-filled with whatever was found so the user can fix it).
 */
export async function pickArrayShape(
  ctx: Ctx,
  title: string,
): Promise<(ParsedShape & { ok: true }) | undefined> {
  const atCursor = await shapeAtCursor(ctx);
  const candidate = atCursor?.shape ?? selectedText();
  if (candidate !== undefined) {
    const parsed = parseArrayShape(candidate);
    if (parsed.ok) return parsed;
  }
  return promptShape(title, candidate);
}
