/**
 * The webhook bench's receiver (its own process, 127.0.0.1 only): verifies every delivery's
 * Standard Webhooks signature with node:crypto against the secrets it is given (the check is
 * `verifySignature` in bench-verify.ts, proven against the `svix` library by
 * test/bench-verify.test.ts), answers 204, and reports counts, its own CPU time and
 * event-to-receipt latencies (from `data.emitted_at_ms`, when the body has it) when its parent
 * asks. Messages on stdin/stdout, one JSON line each.
 */
import { createServer } from 'node:http';
import { createInterface } from 'node:readline';
import { verifySignature } from './bench-verify.js';

let keys: Buffer[] = [];
let received = 0;
let verified = 0;
let lastSeq = -1;
let outOfOrder = 0;
let latencies: number[] = [];
let cpu = process.cpuUsage();

/** A number field of the body's `data` object (the bench's synthetic events put `seq` and `emitted_at_ms` there), without parsing the whole body. */
function numberField(body: string, name: string): number | null {
  const at = body.indexOf(`"${name}":`);
  if (at < 0) return null;
  const n = parseInt(body.slice(at + name.length + 3, at + name.length + 20), 10);
  return Number.isFinite(n) ? n : null;
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (d: Buffer) => chunks.push(d));
  req.on('end', () => {
    const at = Date.now();
    received++;
    const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
    if (verifySignature(keys, req.headers, body, at / 1000)) verified++;
    // The bench numbers its events in emission order: a lower number than one already seen arrived out of order.
    const text = body.toString('utf8');
    const seq = numberField(text, 'seq');
    if (seq !== null) {
      if (seq < lastSeq) outOfOrder++;
      lastSeq = Math.max(lastSeq, seq);
    }
    const emitted = numberField(text, 'emitted_at_ms');
    if (emitted !== null) latencies.push(at - emitted);
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
  const msg = JSON.parse(line) as { keys?: string[]; report?: boolean; reset?: boolean; ack?: boolean };
  if (msg.keys) keys = msg.keys.map((k) => Buffer.from(k.replace(/^whsec_/, ''), 'base64'));
  if (msg.reset) {
    received = 0;
    verified = 0;
    outOfOrder = 0;
    lastSeq = -1;
    latencies = [];
    cpu = process.cpuUsage();
  }
  if (msg.ack) process.stdout.write('{}\n');
  if (msg.report) {
    const used = process.cpuUsage(cpu);
    const sorted = [...latencies].sort((a, b) => a - b);
    const pct = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? null;
    process.stdout.write(`${JSON.stringify({ received, verified, outOfOrder, p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1] ?? null, cpuUs: used.user + used.system })}\n`);
  }
  if (!msg.keys && !msg.report && !msg.reset) process.exit(0);
});
