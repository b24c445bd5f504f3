/**
 * Webhook receivers written for the certification tests (issue 46), on 127.0.0.1: one that
 * verifies with the `svix` library (passes every check), one that accepts everything, one that
 * never answers (aborted by the attempt timeout), one that refuses redeliveries (a seen svix-id
 * answers 409).
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'svix';

export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

export type Kind = 'svix' | 'accept_all' | 'silent' | 'no_redelivery';

export interface TestReceiver {
  url: string;
  received: number;
  close(): Promise<void>;
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') out[k] = v;
  return out;
}

function verified(body: string, headers: Record<string, string>): boolean {
  try {
    new Webhook(SECRET).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

export async function testReceiver(kind: Kind): Promise<TestReceiver> {
  const seen = new Set<string>();
  const state = { received: 0 };
  const answer = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    state.received++;
    const headers = headersOf(req);
    if (kind === 'silent') return; // never answers: the sender's timeout aborts it
    if (kind === 'accept_all') {
      res.writeHead(200).end('ok');
      return;
    }
    if (!verified(body, headers)) {
      res.writeHead(400).end('bad signature');
      return;
    }
    const id = headers['svix-id'] ?? '';
    if (kind === 'no_redelivery' && seen.has(id)) {
      res.writeHead(409).end('already seen');
      return;
    }
    seen.add(id);
    res.writeHead(204).end();
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => answer(req, res, body));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    get received() {
      return state.received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const SIGNATURE_CHECKS = [
  'bad_signature_refused',
  'missing_signature_refused',
  'changed_body_signature_refused',
  'stale_timestamp_signature_refused',
];
