/**
 * Shared pieces of the webhook tests: a real HTTP receiver on 127.0.0.1 (node:http) whose answers
 * a test scripts, and helpers to create endpoints and emit events straight onto the bus.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { EmittedEnvelope, EventEnvelope } from '../../src/engine/events.js';
import type { Environment, Partition } from '../../src/engine/tenancy.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import type { Sandbox } from '../../src/index.js';
import type { TestClient } from './client.js';

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  /** Wait this long (wall ms) before answering. */
  delayMs?: number;
}

export interface TestReceiver {
  url: string;
  received: Received[];
  /** How to answer the next requests: each call is consumed once, then `fallback`. */
  script: Answer[];
  fallback: Answer;
  close(): Promise<void>;
}

function flat(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export async function startReceiver(): Promise<TestReceiver> {
  const receiver: TestReceiver = {
    url: '',
    received: [],
    script: [],
    fallback: { status: 200, body: 'ok' },
    close: async () => undefined,
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ path: req.url ?? '/', headers: flat(req.headers), body: Buffer.concat(chunks).toString('utf8') });
      const answer = receiver.script.shift() ?? receiver.fallback;
      const send = () => {
        res.writeHead(answer.status, answer.headers ?? {});
        res.end(answer.body ?? '');
      };
      if (answer.delayMs) setTimeout(send, answer.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  receiver.url = `http://127.0.0.1:${port}`;
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export const USER_ID = '6f1c7e0a-3b2d-4c5e-9f10-2a3b4c5d6e7f';

export function teamOf(c: TestClient, index = 0): string {
  const id = c.creds.teams[index]?.team_id;
  if (!id) throw new Error('no such team');
  return id;
}

export function webhookBase(c: TestClient, environment: Environment = 'sandbox', teamIndex = 0): string {
  return `/v1/org/${c.orgId}/team/${teamOf(c, teamIndex)}/${environment}/webhook`;
}

export function partitionOf(c: TestClient, environment: Environment = 'sandbox', teamIndex = 0): Partition {
  const team = c.sandbox.world.tenancy.teams.get(teamOf(c, teamIndex));
  if (!team) throw new Error('team missing');
  return c.sandbox.world.tenancy.partition(team, environment);
}

/** Emits an event straight onto the bus (no other area needed). */
export function emit(
  c: TestClient,
  eventType: string,
  data: Record<string, unknown> = {},
  environment: Environment = 'sandbox',
  teamIndex = 0,
) {
  const partition = partitionOf(c, environment, teamIndex);
  const envelope: EventEnvelope = { event_type: eventType, data, team_id: partition.team.id, user_id: USER_ID, client_user_id: 'client-1' };
  // Any type with any data, on purpose (the emitters of src are typed by src/wire/events.ts).
  return c.sandbox.world.events.emit(partition, envelope as EmittedEnvelope);
}

export async function createEndpoint(c: TestClient, body: Record<string, unknown>, environment: Environment = 'sandbox', teamIndex = 0) {
  const res = await c.mgmt('POST', webhookBase(c, environment, teamIndex), { body });
  expect(res.status, res.text).toBe(200);
  const secret = await c.mgmt('GET', `${webhookBase(c, environment, teamIndex)}/${res.body.id}/secret`);
  expect(secret.status).toBe(200);
  return { id: res.body.id as string, webhook: res.body, secret: secret.body.key as string };
}

/** Lets in-flight work finish: advance 0 runs the barrier jobs, then `settle()` waits for the rest (file writes). */
export async function flush(c: TestClient): Promise<void> {
  const res = await c.advance(0);
  expect(res.status).toBe(200);
  await c.sandbox.settle();
}

export async function attempts(c: TestClient, query: Record<string, string | number> = {}) {
  const res = await c.get('/_sandbox/webhooks/attempts', { query: { limit: 1000, ...query } });
  expect(res.status, res.text).toBe(200);
  return res.body.attempts as Array<Record<string, any>>;
}

/**
 * Sandbox options for webhook tests: no seeded users, so the other areas' background activity
 * (new wearable data, seeded lab orders moving on) emits nothing the tests did not ask for.
 */
export const QUIET = { users: 0, usersElsewhere: 0 } as const;

/**
 * An injected webhook transport answering from a script (each answer used once, then `fallback`),
 * recording every request: no network at all. `hang: true` answers never (only the attempt
 * timeout ends it).
 */
interface ScriptedTransport {
  transport: WebhookTransport;
  received: Received[];
  script: Array<Answer & { hang?: boolean }>;
  fallback: Answer;
}

export function scriptedTransport(): ScriptedTransport {
  const scripted: ScriptedTransport = {
    received: [],
    script: [],
    fallback: { status: 200, body: 'ok' },
    transport: async (request) => {
      scripted.received.push({ path: new URL(request.url).pathname, headers: { ...request.headers }, body: request.body });
      const answer = scripted.script.shift() ?? scripted.fallback;
      if ('hang' in answer && answer.hang) {
        return new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted'))));
      }
      return { status: answer.status, headers: answer.headers ?? {}, body: answer.body ?? '' };
    },
  };
  return scripted;
}

/**
 * Walks the clock to each offset (seconds from where it stands now), waiting after each for the
 * deliveries to end (`settle()`). An advance waits at most one attempt timeout in all (issue 27),
 * so a test that wants each retry step of a hanging receiver to have its outcome before the next
 * walks the steps one advance each.
 */
export async function walk(c: TestClient, offsets: readonly number[]): Promise<void> {
  let at = 0;
  for (const offset of offsets) {
    const res = await c.advance(offset - at);
    expect(res.status, res.text).toBe(200);
    await c.sandbox.settle();
    at = offset;
  }
}

/** `n` events of the first team's sandbox environment straight into the world, numbered in `data.seq` (0 to n - 1). */
export function emitNumbered(sandbox: Sandbox, n: number): void {
  const world = sandbox.world;
  const team = [...world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const partition = world.tenancy.partition(team, 'sandbox');
  for (let seq = 0; seq < n; seq++) {
    world.events.emit(partition, {
      event_type: 'daily.data.steps.created',
      data: { seq },
      team_id: team.id,
      user_id: '00000000-0000-4000-8000-000000000001',
      client_user_id: 'window',
    });
  }
}
