/** Helpers for the extension-host suite: wait on real VS Code events, never sleep. */
import * as vscode from 'vscode';
import { join, resolve } from 'node:path';

/** The fixtures folder (the compiled suite lives in out/vscode-suite/, two levels below the repo). */
export const FIXTURES = resolve(__dirname, '..', '..', 'test', 'vscode', 'fixtures');
export const fixture = (name: string): vscode.Uri => vscode.Uri.file(join(FIXTURES, name));

export const EXTENSION_ID = 'xla-layout-lens.xla-layout-lens';

/** Resolves with `check()`'s first non-undefined value, re-checking on every `event`; rejects after `ms`. */
export function waitFor<T>(
  event: vscode.Event<unknown>,
  check: () => T | undefined,
  what: string,
  ms = 30_000,
): Promise<T> {
  return new Promise((resolvePromise, reject) => {
    const now = check();
    if (now !== undefined) {
      resolvePromise(now);
      return;
    }
    const timer = setTimeout(() => {
      sub.dispose();
      reject(new Error(`timed out after ${ms} ms waiting for ${what}`));
    }, ms);
    const sub = event(() => {
      const value = check();
      if (value !== undefined) {
        clearTimeout(timer);
        sub.dispose();
        resolvePromise(value);
      }
    });
  });
}

/** Diagnostics of `uri` with `code`, waiting until at least one exists. */
export function waitForDiagnostic(uri: vscode.Uri, code: string): Promise<vscode.Diagnostic[]> {
  return waitFor(
    vscode.languages.onDidChangeDiagnostics,
    () => {
      const found = vscode.languages.getDiagnostics(uri).filter((d) => codeOf(d) === code);
      return found.length > 0 ? found : undefined;
    },
    `a '${code}' diagnostic on ${uri.fsPath}`,
  );
}

/** Waits until `uri` has no diagnostic with `code`. */
export function waitForNoDiagnostic(uri: vscode.Uri, code: string): Promise<true> {
  return waitFor(
    vscode.languages.onDidChangeDiagnostics,
    () => (vscode.languages.getDiagnostics(uri).some((d) => codeOf(d) === code) ? undefined : true),
    `the '${code}' diagnostic on ${uri.fsPath} to go away`,
  );
}

/** A diagnostic's code whether given plainly or as `{ value, target }`. */
export function codeOf(d: vscode.Diagnostic): string | undefined {
  const c = d.code;
  if (c === undefined) return undefined;
  return typeof c === 'object' ? String(c.value) : String(c);
}

/** Plain text of hover contents (markdown strings and marked strings alike). */
export function hoverText(hovers: readonly vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

/** Position of the first occurrence of `needle` in `doc` (plus `delta` characters). */
export function positionOf(doc: vscode.TextDocument, needle: string, delta = 0): vscode.Position {
  const at = doc.getText().indexOf(needle);
  if (at < 0) throw new Error(`'${needle}' is not in ${doc.uri.fsPath}`);
  return doc.positionAt(at + delta);
}
