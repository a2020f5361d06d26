/** The client sends a whole-document request again while the server answers ContentModified. */
import { strict as assert } from 'node:assert';
import { RequestType, ResponseError } from 'vscode-jsonrpc';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { requestAgainIfModified } from '../../../client/src/request-again';

/** A client whose requests fail with `errors` in turn, then answer `result`; counts the requests. */
function fakeClient(errors: Error[], result: string): { client: BaseLanguageClient; sent: () => number } {
  let sent = 0;
  const client = {
    sendRequest: (): Promise<string> => {
      const error = errors[sent++];
      return error === undefined ? Promise.resolve(result) : Promise.reject(error);
    },
  } as unknown as BaseLanguageClient;
  return { client, sent: () => sent };
}

const REPORT = new RequestType<object, string, void>('test/report');

const modified = () => new ResponseError(-32801, 'the document changed while the request ran');

describe('client: requests sent again after ContentModified', () => {
  it('asks again after one or two ContentModified answers', async () => {
    for (const failures of [0, 1, 2]) {
      const { client, sent } = fakeClient(Array.from({ length: failures }, modified), 'report');
      assert.equal(await requestAgainIfModified(client, REPORT, {}), 'report');
      assert.equal(sent(), failures + 1);
    }
  });

  it('gives up after three, and passes other errors on at once', async () => {
    const three = fakeClient([modified(), modified(), modified()], 'never');
    await assert.rejects(
      requestAgainIfModified(three.client, REPORT, {}),
      (e: unknown) => e instanceof ResponseError && e.code === -32801,
    );
    assert.equal(three.sent(), 3);
    const other = fakeClient([new ResponseError(-32603, 'internal')], 'never');
    await assert.rejects(requestAgainIfModified(other.client, REPORT, {}), /internal/);
    assert.equal(other.sent(), 1);
  });
});
