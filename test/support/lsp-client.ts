/** What the tests' stand-in LSP clients tell the language server in `initialize`. */
import type { InitializeParams } from 'vscode-languageserver';

/**
 * The `initialize` request of a client like VS Code's as far as the server cares: it answers
 * `workspace/configuration`, reads markdown hovers and hierarchical symbols, wants versioned
 * diagnostics with code links, and takes quick fixes as literals. No process, no workspace folder.
 */
export const TEST_INITIALIZE_PARAMS: InitializeParams = {
  processId: null,
  rootUri: null,
  capabilities: {
    workspace: { configuration: true, didChangeConfiguration: { dynamicRegistration: false } },
    textDocument: {
      hover: { contentFormat: ['markdown', 'plaintext'] },
      documentSymbol: { hierarchicalDocumentSymbolSupport: true },
      publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, versionSupport: true },
      codeAction: {
        codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } },
        isPreferredSupport: true,
      },
      rename: { prepareSupport: true },
    },
  },
};
