/**
 * Browser entry of the language server (bundled to dist/browser/server.js), run by the web
 * extension in a dedicated web worker: messages travel through the worker's postMessage.
 */
import { BrowserMessageReader, BrowserMessageWriter, createConnection } from 'vscode-languageserver/browser';
import { createServer } from './server';

declare const self: DedicatedWorkerGlobalScope;

const connection = createConnection(new BrowserMessageReader(self), new BrowserMessageWriter(self));
createServer(connection);
connection.listen();
