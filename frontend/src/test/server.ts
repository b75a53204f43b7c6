// A real HTTP server on a loopback port for request-layer tests; each test scripts its answer.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Answer {
  status?: number;
  contentType?: string;
  body?: string;
  delayMs?: number;
}

export interface TestServer {
  origin: string;
  seen: Seen[];
  answer: (a: Answer | ((seen: Seen) => Answer)) => void;
  close: () => Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  const seen: Seen[] = [];
  let next: Answer | ((s: Seen) => Answer) = { body: '{"code":200,"result":null}' };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const record = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString() };
      seen.push(record);
      const a = typeof next === 'function' ? next(record) : next;
      const send = () => {
        res.writeHead(a.status ?? 200, { 'Content-Type': a.contentType ?? 'application/json' });
        res.end(a.body ?? '');
      };
      if (a.delayMs) setTimeout(send, a.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    seen,
    answer: (a) => {
      next = a;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
