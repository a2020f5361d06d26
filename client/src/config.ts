/**
 * The extension's settings as the client sees them: read through the same reader the language
 * server uses (protocol/src/settings.ts), so what the output channel logs is what the server uses.
 * The client itself needs only `trace.server`, which vscode-languageclient reads on its own because
 * the client id is the section name.
 */
import * as vscode from 'vscode';
import { CONFIG_SECTION, readSettings, type ReadSettings } from '../../protocol/src/settings';

/**
 * Reads the settings for `scope` (a document URI for resource-scoped values; by default, null: the
 * values of no particular resource, which VS Code otherwise warns about), clamped to their schema,
 * with what was wrong in the raw values (unknown rule codes, values out of bounds).
 */
export function readConfig(scope: vscode.ConfigurationScope | null = null): ReadSettings {
  const c = vscode.workspace.getConfiguration(CONFIG_SECTION, scope);
  return readSettings((key) => c.get(key));
}
