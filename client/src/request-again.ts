/**
 * Custom requests over whole documents (padding report, instructions of a source line) yield while
 * they run, and the server answers ContentModified when an edit lands in the meantime: its result
 * would describe text that no longer exists. Asked again, it reads the edited text.
 */
import type { BaseLanguageClient, RequestType } from 'vscode-languageclient';

/** Tries this many times in all before passing the ContentModified error on (someone typing fast). */
const ATTEMPTS = 3;

/** LSP's ContentModified error code (the client's ResponseError carries it as `code`). */
const CONTENT_MODIFIED = -32801;

/** `client.sendRequest(type, params)`, sent again while the server answers ContentModified. */
export async function requestAgainIfModified<P, R>(
  client: BaseLanguageClient,
  type: RequestType<P, R, void>,
  params: P,
): Promise<R> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.sendRequest(type, params);
    } catch (e) {
      const modified =
        typeof e === 'object' && e !== null && (e as { code?: unknown }).code === CONTENT_MODIFIED;
      if (!modified || attempt >= ATTEMPTS) throw e;
    }
  }
}
