/** A minimal HTTP server on an ephemeral 127.0.0.1 port, for pages the browser tests load. */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 200 answer: its headers (content type, CSP, …) and body. */
export interface Reply {
  readonly headers: Record<string, string>;
  readonly body: string | Uint8Array;
}

/** The answer for a request path (query stripped), or undefined for 404. */
export type Route = (path: string, req: IncomingMessage) => Reply | undefined;

export interface LoopbackServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  readonly origin: string;
  close(): Promise<void>;
}

/** Serves `route` until closed; `/favicon.ico` gets 204, so Chromium's own request logs no 404. */
export async function serveLoopback(route: Route): Promise<LoopbackServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/favicon.ico') {
      res.writeHead(204);
      res.end();
      return;
    }
    const reply = route(path, req);
    res.writeHead(reply === undefined ? 404 : 200, reply?.headers);
    res.end(reply?.body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
