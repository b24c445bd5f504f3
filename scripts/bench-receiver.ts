/**
 * The webhook bench's receiver (its own process, 127.0.0.1 only): an HTTP/1.1 server on
 * node:net that reads pipelined requests framed by `content-length` (what the sandbox's
 * transports send; anything else is answered 400 and the connection closed), verifies every
 * delivery's Standard Webhooks signature with node:crypto against the secrets it is given
 * (`verifySignature` in bench-verify.ts, proven against the `svix` library by
 * test/engine/bench-verify.test.ts), and answers each request `204` from a prebuilt buffer, every answer
 * to one read in one write. It reports counts, its own CPU time and event-to-receipt latencies
 * (from `data.emitted_at_ms`, when the body has it) when its parent asks. Messages on
 * stdin/stdout, one JSON line each.
 */
import { createServer, type Socket } from 'node:net';
import { createInterface } from 'node:readline';
import { verifySignature } from './bench-verify.js';

let keys: Buffer[] = [];
let received = 0;
let verified = 0;
let lastSeq = -1;
let outOfOrder = 0;
let latencies: number[] = [];
let cpu = process.cpuUsage();

const CRLF2 = Buffer.from('\r\n\r\n');
const NO_CONTENT = Buffer.from('HTTP/1.1 204 No Content\r\nconnection: keep-alive\r\nkeep-alive: timeout=60\r\n\r\n', 'latin1');
const BAD_REQUEST = Buffer.from('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n', 'latin1');
/** Answers for up to 512 requests read at once, sliced from one buffer. */
const ANSWERS = Buffer.concat(Array.from({ length: 512 }, () => NO_CONTENT));

/** A number field of the body (the bench's synthetic events put `seq` and `emitted_at_ms` in `data`), without parsing the whole body. */
function numberField(body: Buffer, name: string): number | null {
  const at = body.indexOf(`"${name}":`);
  if (at < 0) return null;
  const start = at + name.length + 3;
  const n = parseInt(body.toString('latin1', start, Math.min(body.length, start + 20)), 10);
  return Number.isFinite(n) ? n : null;
}

function handle(headers: Record<string, string>, body: Buffer): void {
  const at = Date.now();
  received++;
  if (verifySignature(keys, headers, body, at / 1000)) verified++;
  // The bench numbers its events in emission order: a lower number than one already seen arrived out of order.
  const seq = numberField(body, 'seq');
  if (seq !== null) {
    if (seq < lastSeq) outOfOrder++;
    lastSeq = Math.max(lastSeq, seq);
  }
  const emitted = numberField(body, 'emitted_at_ms');
  if (emitted !== null) latencies.push(at - emitted);
}

/** Serves the complete requests in `buf`; returns what is left of an incomplete one. */
function serve(socket: Socket, buf: Buffer): Buffer {
  let at = 0;
  let answers = 0;
  for (;;) {
    const end = buf.indexOf(CRLF2, at);
    if (end < 0) break;
    const lines = buf.toString('latin1', at, end).split('\r\n');
    const headers: Record<string, string> = {};
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i] as string;
      const colon = line.indexOf(':');
      if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length']);
    if (headers['transfer-encoding'] !== undefined || !Number.isSafeInteger(length) || length < 0) {
      socket.end(BAD_REQUEST);
      return Buffer.alloc(0);
    }
    if (buf.length < end + 4 + length) break;
    handle(headers, buf.subarray(end + 4, end + 4 + length));
    answers++;
    at = end + 4 + length;
    if (answers * NO_CONTENT.length === ANSWERS.length) {
      socket.write(ANSWERS);
      answers = 0;
    }
  }
  if (answers > 0) socket.write(ANSWERS.subarray(0, answers * NO_CONTENT.length));
  return at === 0 ? buf : buf.subarray(at);
}

const server = createServer((socket) => {
  socket.setNoDelay(true);
  let buf: Buffer = Buffer.alloc(0);
  socket.on('data', (chunk: Buffer) => {
    buf = serve(socket, buf.length === 0 ? chunk : Buffer.concat([buf, chunk]));
  });
  socket.on('error', () => socket.destroy());
});
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
    process.stdout.write(
      `${JSON.stringify({ received, verified, outOfOrder, p50: pct(50), p99: pct(99), max: sorted[sorted.length - 1] ?? null, cpuUs: used.user + used.system })}\n`,
    );
  }
  if (!msg.keys && !msg.report && !msg.reset) process.exit(0);
});
