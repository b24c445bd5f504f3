/**
 * Load generator for the HTTP bench (runs in its own process): `--url`, `--seconds`,
 * `--connections`; keep-alive GETs with a fixed set of headers; prints requests per second as JSON.
 * 127.0.0.1 only.
 */
import { Agent, request } from 'node:http';

const args = new Map<string, string>();
for (let i = 2; i < process.argv.length; i += 2) args.set(process.argv[i]?.replace(/^--/, '') ?? '', process.argv[i + 1] ?? '');
const urls = (args.get('urls') ?? '').split(',');
const seconds = Number(args.get('seconds') ?? '3');
const connections = Number(args.get('connections') ?? '16');
const headers = JSON.parse(args.get('headers') ?? '{}') as Record<string, string>;
for (const u of urls) if (new URL(u).hostname !== '127.0.0.1') throw new Error('bench load goes to 127.0.0.1 only');

const agent = new Agent({ keepAlive: true, maxSockets: connections });
let done = 0;
/** Every answered request, warm-up included (the server's CPU time covers those too). */
let total = 0;
let errors = 0;
let stop = false;

function one(i: number): Promise<void> {
  return new Promise((resolve) => {
    const url = new URL(urls[i % urls.length] as string);
    const req = request({ agent, host: url.hostname, port: url.port, path: `${url.pathname}${url.search}`, headers }, (res) => {
      if ((res.statusCode ?? 500) >= 400) errors++;
      res.resume();
      res.on('end', () => {
        done++;
        total++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
    req.end();
  });
}

async function worker(w: number): Promise<void> {
  let i = w;
  while (!stop) await one((i += connections));
}

async function main(): Promise<void> {
  // Warm-up, then measure.
  stop = false;
  const warm = Array.from({ length: connections }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, 500));
  stop = true;
  await Promise.all(warm);
  done = 0;
  errors = 0;
  stop = false;
  const start = process.hrtime.bigint();
  const running = Array.from({ length: connections }, (_, w) => worker(w));
  await new Promise((r) => setTimeout(r, seconds * 1000));
  stop = true;
  await Promise.all(running);
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  process.stdout.write(`${JSON.stringify({ rps: done / secs, errors, total })}\n`);
  agent.destroy();
}

void main();
