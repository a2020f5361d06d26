/**
 * Quick fixes, offered only where the intended text is certain, each attached to the diagnostic it
 * fixes and marked preferred: the layout fixes of layout-fixes.ts, an operand named only in its
 * computation's signature → its parameter instruction (parameter-fix.ts), and an unknown element
 * type in another case or another language's name (`F32`, `float32`) → the XLA name (`f32`). And
 * those that are a guess, so not preferred: an operand or call naming nothing known → the known
 * name spelt most like it (spelling.ts); an unknown element type or opcode one edit from one → that one.
 */
import { CodeActionKind, type CodeAction, type CodeActionParams, type TextEdit } from 'vscode-languageserver';
import type { TextRange } from '../../core/src';
import { editDistance, elementTypeGuesses, opcodeGuesses } from '../../core/src';
import type { HloDocument } from './document';
import { layoutFix, type Fix } from './layout-fixes';
import { DIAGNOSTIC_SOURCE } from './lsp-diagnostics';
import { toRange, toTextRange } from './positions';
import { parameterDefinition } from './parameter-fix';
import { respelling } from './spelling';

/** `F32` → `f32`, `float32` → `f32` (certain); `bf61` → `bf16` (a guess); none when several types are as close. */
function elementTypeFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const word = doc.text.getText().slice(range.start, range.end);
  const guesses = elementTypeGuesses(word);
  if (guesses.length !== 1) return undefined;
  const type = guesses[0];
  const lower = word.toLowerCase();
  // The same name in another case, or another language's name for it: no typo to guess at.
  const certain = lower === type || editDistance(lower, type, 1) > 1;
  return { title: `Change to ${type}`, edit: { range, newText: type }, preferred: certain };
}

/** `parmeter` → `parameter`: the one opcode one edit away (a guess, so not preferred). */
function opcodeFix(doc: HloDocument, range: TextRange): Fix | undefined {
  const guesses = opcodeGuesses(doc.text.getText().slice(range.start, range.end));
  if (guesses.length !== 1) return undefined;
  return { title: `Change to ${guesses[0]}`, edit: { range, newText: guesses[0] }, preferred: false };
}

function fixFor(doc: HloDocument, code: string, range: TextRange, data: unknown): Fix | undefined {
  if (code === 'unknown-element-type') return elementTypeFix(doc, range);
  if (code === 'unknown-opcode') return opcodeFix(doc, range);
  const layout = layoutFix(doc, code, range, data);
  if (layout) return layout;
  const definition = code === 'instruction-undefined' ? parameterDefinition(doc, range) : undefined;
  if (definition) return { ...definition, preferred: true };
  const name = respelling(doc, code, range);
  return name === undefined
    ? undefined
    : { title: `Change to %${name}`, edit: { range, newText: name }, preferred: false };
}

/** textDocument/codeAction: quick fixes for this server's diagnostics in the request. */
export function codeActions(doc: HloDocument, params: CodeActionParams): CodeAction[] {
  const only = params.context.only;
  if (
    only &&
    !only.some(
      (k) =>
        k === CodeActionKind.QuickFix ||
        CodeActionKind.QuickFix.startsWith(`${k}.`) ||
        k === CodeActionKind.Empty,
    )
  )
    return [];
  const out: CodeAction[] = [];
  for (const d of params.context.diagnostics) {
    if (d.source !== DIAGNOSTIC_SOURCE || typeof d.code !== 'string') continue;
    const fix = fixFor(doc, d.code, toTextRange(doc.text, d.range), d.data);
    if (!fix) continue;
    const edit: TextEdit = { range: toRange(doc.text, fix.edit.range), newText: fix.edit.newText };
    out.push({
      title: fix.title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [d],
      isPreferred: fix.preferred,
      edit: { changes: { [doc.uri]: [edit] } },
    });
  }
  return out;
}
