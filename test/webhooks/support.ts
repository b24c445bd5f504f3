/**
 * Helpers of the webhooks hardening tests (issue 27): a real receiver on 127.0.0.1 answering by
 * path, endpoints made through the management API, events emitted straight on the bus, and the
 * attempt log read through the control plane. No timers: every wait is on an event or `settle()`.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/index.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface Got {
  path: string;
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
}

export interface Receiver {
  server: Server;
  port: number;
  origin: string;
  all: Got[];
  close(): void;
}

/** A receiver on 127.0.0.1 calling `onRequest` once each request's body has arrived. */
export async function receiver(onRequest: (got: Got) => void): Promise<Receiver> {
  const all: Got[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (d: string) => (body += d));
    req.on('end', () => {
      const got = { path: req.url ?? '/', req, res, body };
      all.push(got);
      onRequest(got);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    all,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

async function call(sandbox: Sandbox, surface: 'management' | 'data', method: string, path: string, body?: unknown) {
  const creds = sandbox.credentials();
  const res = await sandbox.dispatch({
    method,
    surface,
    path,
    query: {},
    headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
    rawBody: body === undefined ? new Uint8Array(0) : encoder.encode(JSON.stringify(body)),
  });
  const text = decoder.decode(res.body);
  return { status: res.status, text, body: text === '' ? undefined : (JSON.parse(text) as Record<string, unknown>) };
}

/** Creates an endpoint of team `teamIndex` (sandbox environment); returns its id. */
export async function endpoint(sandbox: Sandbox, url: string, teamIndex = 0): Promise<string> {
  const creds = sandbox.credentials();
  const team = creds.teams[teamIndex];
  if (!team) throw new Error('no such team');
  const res = await call(sandbox, 'management', 'POST', `/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`, { url });
  expect(res.status, res.text).toBe(200);
  return res.body?.id as string;
}

/** Emits `n` events to team `teamIndex`'s sandbox environment. */
export function emit(sandbox: Sandbox, n: number, teamIndex = 0): void {
  const world = sandbox.world;
  const team = [...world.tenancy.teams.values()][teamIndex];
  if (!team) throw new Error('no such team');
  const partition = world.tenancy.partition(team, 'sandbox');
  for (let seq = 0; seq < n; seq++)
    world.events.emit(partition, {
      event_type: 'daily.data.steps.created',
      data: { seq },
      team_id: team.id,
      user_id: '00000000-0000-4000-8000-000000000001',
      client_user_id: 'hardening',
    });
}

export interface Attempt {
  endpoint_id: string;
  msg_id: string;
  attempt_number: number;
  status: string;
  error: string | null;
  created_at: string;
  url: string;
}

/** Every attempt in the log (control plane), oldest first. */
export async function attempts(sandbox: Sandbox): Promise<Attempt[]> {
  const res = await sandbox.dispatch({
    method: 'GET',
    surface: 'data',
    path: '/_sandbox/webhooks/attempts',
    query: { limit: ['1000'] },
    headers: {},
    rawBody: new Uint8Array(0),
  });
  expect(res.status).toBe(200);
  const list = (JSON.parse(decoder.decode(res.body)) as { attempts: Attempt[] }).attempts;
  return [...list].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.attempt_number - b.attempt_number);
}
