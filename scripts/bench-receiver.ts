/**
 * The webhook bench's receiver (its own process, 127.0.0.1 only): verifies every delivery's
 * Standard Webhooks signature with node:crypto against the secrets it is given, answers 204, and
 * reports counts and event-to-receipt latencies (from `data.emitted_at_ms`, when the body has it)
 * when its parent asks. Messages on stdin/stdout, one JSON line each.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';

let keys: Buffer[] = [];
let received = 0;
let verified = 0;
let lastSeq = -1;
let outOfOrder = 0;
let latencies: number[] = [];

function check(headers: Record<string, string | string[] | undefined>, body: string): boolean {
  const id = String(headers['svix-id'] ?? headers['webhook-id'] ?? '');
  const ts = String(headers['svix-timestamp'] ?? headers['webhook-timestamp'] ?? '');
  const sigs = String(headers['svix-signature'] ?? headers['webhook-signature'] ?? '').split(' ');
  if (!id || !ts || Math.abs(Date.now() / 1000 - Number(ts)) > 300) return false;
  for (const key of keys) {
    const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64'));
    for (const s of sigs) {
      const given = Buffer.from(s.slice(3));
      if (s.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
  }
  return false;
}

const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (d: string) => (body += d));
  req.on('end', () => {
    const at = Date.now();
    received++;
    if (check(req.headers, body)) verified++;
    // The bench numbers its events in emission order: a lower number than one already seen arrived out of order.
    const data = (JSON.parse(body) as { data?: { seq?: number; emitted_at_ms?: number } }).data;
    if (typeof data?.seq === 'number') {
      if (data.seq < lastSeq) outOfOrder++;
      lastSeq = Math.max(lastSeq, data.seq);
    }
    if (typeof data?.emitted_at_ms === 'number') latencies.push(at - data.emitted_at_ms);
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${port}/hook` })}\n`);
});

const lines = createInterface({ input: process.stdin });
lines.on('close', () => process.exit(0));
lines.on('line', (line) => {
  const msg = JSON.parse(line) as { keys?: string[]; report?: boolean; reset?: boolean };
  if (msg.keys) keys = msg.keys.map((k) => Buffer.from(k.replace(/^whsec_/, ''), 'base64'));
  if (msg.reset) {
    received = 0;
    verified = 0;
    outOfOrder = 0;
    lastSeq = -1;
    latencies = [];
  }
  if (msg.report) {
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
    process.stdout.write(`${JSON.stringify({ received, verified, outOfOrder, p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1] ?? null })}\n`);
  }
  if (!msg.keys && !msg.report && !msg.reset) process.exit(0);
});
