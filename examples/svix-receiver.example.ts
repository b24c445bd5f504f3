/**
 * Recipe: your webhook receiver verifies the sandbox's deliveries with `svix`, exactly as it
 * would verify the real service's. The receiver runs on 127.0.0.1; the endpoint is declared in a
 * scenario; the test moves time and checks what the receiver accepted.
 * In your project: `import { startSandbox } from 'health-sandbox/testing'`.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../src/testing.js';

/** The code under test: a receiver that verifies with svix and keeps what verified. */
function startReceiver(secret: () => string): Promise<{ server: Server; url: string; accepted: Array<{ type: string }>; rejected: number }> {
  const state = { accepted: [] as Array<{ type: string }>, rejected: 0 };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      try {
        const event = new Webhook(secret()).verify(body, req.headers as Record<string, string>) as { event_type: string };
        state.accepted.push({ type: event.event_type });
        res.writeHead(204).end();
      } catch {
        state.rejected++;
        res.writeHead(400).end();
      }
    });
  });
  return new Promise((done) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      done({ server, url: `http://127.0.0.1:${port}/webhooks`, ...state, get rejected() { return state.rejected; } });
    }),
  );
}

let sandbox: StartedSandbox;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let secret = '';

describe('recipe: verifying webhooks with svix', () => {
  beforeAll(async () => {
    receiver = await startReceiver(() => secret);
    sandbox = await startSandbox({ scenario: { world: 'empty', webhooks: [{ url: receiver.url, filter_types: ['provider.connection.created', 'labtest.order.created'] }] } });
    const creds = await sandbox.credentials();
    const team = creds.teams[0]!;
    const list = (await (await fetch(`${creds.management_url}/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`, { headers: { 'x-management-key': creds.management_key } })).json()) as Array<{ id: string }> | { data?: Array<{ id: string }> };
    const endpoints = Array.isArray(list) ? list : (list.data ?? []);
    const got = await fetch(`${creds.management_url}/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook/${endpoints[0]!.id}/secret`, { headers: { 'x-management-key': creds.management_key } });
    secret = ((await got.json()) as { key: string }).key;
  });
  afterAll(async () => {
    await sandbox.close();
    receiver.server.close();
  });

  it('accepts the signed deliveries of a new connection', async () => {
    const key = (await sandbox.credentials()).teams[0]!.api_keys.sandbox;
    const headers = { 'x-vital-api-key': key, 'content-type': 'application/json' };
    const user = (await (await fetch(`${sandbox.url}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: 'hooked' }) })).json()) as { user_id: string };
    await fetch(`${sandbox.url}/v2/link/connect/demo`, { method: 'POST', headers, body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }) });
    await sandbox.advance('1m');
    expect(receiver.accepted.map((e) => e.type)).toContain('provider.connection.created');
    expect(receiver.rejected).toBe(0);
  });
});
