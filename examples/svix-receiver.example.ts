/**
 * Recipe: your webhook receiver verifies the sandbox's deliveries with `svix`, exactly as it
 * would verify the real service's. One sandbox server for the file, a reset before every test,
 * and every test in a team of its own with its own endpoint (pointing at a receiver on
 * 127.0.0.1) and its own signing secret, so tests could share the server concurrently. The test
 * waits for the deliveries in flight (`sandbox.settle()`), then checks what its receiver accepted.
 * In your project: `import { startSandbox } from 'health-sandbox/testing'`.
 */
import { createServer, type Server } from 'node:http';
import { Webhook } from 'svix';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../src/testing.js';
import { ownTeam } from './own-team.js';

interface Receiver {
  server: Server;
  url: string;
  accepted: Array<{ type: string; user: string }>;
  rejected: number;
}

/** The code under test: a receiver that verifies with svix (its secret configured) and keeps what verified. */
function startReceiver(secret: () => string): Promise<Receiver> {
  return new Promise((done) => {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        try {
          const event = new Webhook(secret()).verify(body, req.headers as Record<string, string>) as {
            event_type: string;
            user_id: string;
          };
          receiver.accepted.push({ type: event.event_type, user: event.user_id });
          res.writeHead(204).end();
        } catch {
          receiver.rejected++;
          res.writeHead(400).end();
        }
      });
    });
    const receiver: Receiver = { server, url: '', accepted: [], rejected: 0 };
    server.listen(0, '127.0.0.1', () => {
      receiver.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/webhooks`;
      done(receiver);
    });
  });
}

let sandbox: StartedSandbox;

/** This test's team, its webhook endpoint at `url` (management API) and the endpoint's signing secret. */
async function teamWithEndpoint(url: string): Promise<{ apiKey: string; secret: string }> {
  const { teamId, apiKey } = await ownTeam(sandbox);
  const creds = await sandbox.credentials();
  const headers = { 'x-management-key': creds.management_key, 'content-type': 'application/json' };
  const base = `${creds.management_url}/v1/org/${creds.org_id}/team/${teamId}/sandbox/webhook`;
  const created = await fetch(base, {
    method: 'POST',
    headers,
    body: JSON.stringify({ url, filter_types: ['provider.connection.created'] }),
  });
  const endpoint = (await created.json()) as { id: string };
  const secret = ((await (await fetch(`${base}/${endpoint.id}/secret`, { headers })).json()) as { key: string }).key;
  return { apiKey, secret };
}

/** Creates a user in the team and connects a demo provider (the service then sends provider.connection.created). */
async function connectedUser(apiKey: string, clientUserId: string): Promise<string> {
  const headers = { 'x-vital-api-key': apiKey, 'content-type': 'application/json' };
  const user = (await (
    await fetch(`${sandbox.url}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: clientUserId }) })
  ).json()) as { user_id: string };
  await fetch(`${sandbox.url}/v2/link/connect/demo`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }),
  });
  return user.user_id;
}

describe('recipe: verifying webhooks with svix', () => {
  let receiver: Receiver;
  let secret = '';
  let apiKey = '';

  beforeAll(async () => {
    sandbox = await startSandbox({ world: 'empty', feed: 'off' });
  });
  afterAll(() => sandbox.close());
  beforeEach(async () => {
    await sandbox.reset(); // a fresh world: same org and keys, no teams or endpoints from earlier tests
    receiver = await startReceiver(() => secret);
    ({ apiKey, secret } = await teamWithEndpoint(receiver.url));
  });
  afterEach(() => {
    receiver.server.close();
  });

  it('accepts the signed delivery of a new connection', async () => {
    const userId = await connectedUser(apiKey, 'hooked');
    await sandbox.sandbox.settle(); // the deliveries in flight have arrived
    expect(receiver.accepted).toEqual([{ type: 'provider.connection.created', user: userId }]);
    expect(receiver.rejected).toBe(0);
  });

  it('rejects a delivery signed with another secret', async () => {
    secret = `whsec_${Buffer.from('not the endpoint secret!').toString('base64')}`;
    await connectedUser(apiKey, 'hooked');
    await sandbox.sandbox.settle();
    expect(receiver.accepted).toEqual([]);
    expect(receiver.rejected).toBe(1);
  });
});
