/** The parent's side of the bench receiver (scripts/bench-receiver.ts): starts it, sends it keys, asks for reports. */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Sandbox } from '../src/index.js';
import { webhooksOf } from '../src/state/webhooks/webhooks.js';
import { createEndpoint } from './bench-endpoint.js';

const here = dirname(fileURLToPath(import.meta.url));
const tsxCli = createRequire(import.meta.url).resolve('tsx/cli');

export interface Report {
  received: number;
  verified: number;
  outOfOrder: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** The receiver process's CPU time (user + system) since the last reset, microseconds. */
  cpuUs: number;
}

export class Receiver {
  private readonly lines: string[] = [];
  private waiter: ((line: string) => void) | null = null;
  private constructor(private readonly child: ChildProcess) {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (this.waiter) {
        const w = this.waiter;
        this.waiter = null;
        w(line);
      } else this.lines.push(line);
    });
  }

  static async start(): Promise<{ receiver: Receiver; url: string }> {
    const child = spawn(process.execPath, [tsxCli, resolve(here, 'bench-receiver.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
    const receiver = new Receiver(child);
    const { url } = JSON.parse(await receiver.next()) as { url: string };
    if (new URL(url).hostname !== '127.0.0.1') throw new Error('the bench receiver listens on 127.0.0.1 only');
    return { receiver, url };
  }

  private next(): Promise<string> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((r) => (this.waiter = r));
  }

  send(msg: object): void {
    this.child.stdin!.write(`${JSON.stringify(msg)}\n`);
  }

  /** Resets the counters; resolves once the receiver has done so. */
  async reset(keys?: string[]): Promise<void> {
    this.send({ ...(keys ? { keys } : {}), reset: true, ack: true });
    await this.next();
  }

  async report(): Promise<Report> {
    this.send({ report: true });
    return JSON.parse(await this.next()) as Report;
  }

  stop(): void {
    this.child.stdin!.end();
  }
}

/** Creates the endpoint listening to everything and hands its signing keys to the receiver (counters reset). */
export async function listen(sandbox: Sandbox, url: string, receiver: Receiver): Promise<void> {
  await createEndpoint(sandbox, url);
  const store = webhooksOf(sandbox.world);
  const keys = [...store.all()].flatMap((ep) => store.signingKeys(ep));
  await receiver.reset(keys);
}
