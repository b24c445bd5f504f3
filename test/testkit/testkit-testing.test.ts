/** health-sandbox/testing: startSandbox in process, connectSandbox to a CLI server, --json (issue 17). */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'svix';
import { afterAll, describe, expect, it } from 'vitest';
import { connectSandbox, startSandbox, type SandboxControl, type StartedSandbox } from '../../src/testing.js';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

const children: ChildProcess[] = [];
const started: StartedSandbox[] = [];
afterAll(async () => {
  for (const c of children) c.kill('SIGTERM');
  await Promise.all(started.map((s) => s.close()));
});

/** Starts the CLI and resolves with its stdout's first line (and the rest of stdout, collected). */
function cli(
  args: string[],
): Promise<{ line: string; child: ChildProcess; stdout: () => string; stderr: () => string; exit: Promise<number | null> }> {
  const child = spawn(process.execPath, cliArgs(args), { cwd: root, env: { ...process.env, HEALTH_SANDBOX_PORT: '' } });
  children.push(child);
  let out = '';
  let err = '';
  const exit = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return new Promise((resolveLine, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolveLine({ line: out.split('\n')[0] ?? '', child, stdout: () => out, stderr: () => err, exit });
    });
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    void exit.then((code) => resolveLine({ line: '', child, stdout: () => out, stderr: () => err, exit: Promise.resolve(code) }));
    child.on('error', reject);
  });
}

/** What every control client must do, in process or remote. */
async function exercise(control: SandboxControl): Promise<void> {
  const creds = await control.credentials();
  expect(creds.base_url).toBe(control.url);
  const start = await control.clock();
  const moved = await control.advance('2h');
  expect(Date.parse(moved.now) - Date.parse(start.now)).toBe(2 * 3600_000);
  expect(Date.parse((await control.advance(90)).now) - Date.parse(moved.now)).toBe(90_000);
  await control.loadScenario({ world: 'empty', users: [{ client_user_id: 'kit-user', connections: [{ provider: 'oura' }] }] });
  const created = await control.events({ event_type: 'provider.connection.created' });
  expect(created).toHaveLength(1);
  await control.reset();
  expect(await control.events({ event_type: 'provider.connection.created' })).toHaveLength(1);
  await control.loadScenario(null);
}

describe('startSandbox', () => {
  it('serves on a free 127.0.0.1 port with the control client; a scenario file loads with receivers pointing at it', async () => {
    const s = await startSandbox({ scenario: resolve(root, 'scenarios/failing-webhook.yaml') });
    started.push(s);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.managementUrl).toBe(`${s.url}/management`);
    const broken = s.receiver('broken');
    const got = await broken.deliveries();
    expect(got.length).toBeGreaterThanOrEqual(1);
    expect(got[0]).toMatchObject({ verified: true, answered_status: 500, event_type: 'provider.connection.created' });
    const throttled = await s.receiver('throttled').deliveries();
    expect(throttled[0]).toMatchObject({ verified: true, answered_status: 429 });
    // The signature verifies with svix too, with the endpoint's secret.
    const creds = await s.credentials();
    const eps = await s.webhooks.endpoints();
    const ep = eps.endpoints.find((e) => e.url === broken.url);
    expect(ep).toBeDefined();
    const secret = await fetch(
      `${creds.management_url}/v1/org/${creds.org_id}/team/${creds.teams[0]?.team_id}/sandbox/webhook/${ep?.id}/secret`,
      {
        headers: { 'x-management-key': creds.management_key },
      },
    );
    expect(secret.status).toBe(200);
    const key = ((await secret.json()) as { key: string }).key;
    expect(() => new Webhook(key).verify(got[0]?.body ?? '', got[0]?.headers ?? {})).not.toThrow();
    await exercise(s);
  });
});

describe('waitForEvent', () => {
  it('resolves with the first matching event emitted after the call, and times out with a clear error', async () => {
    const s = await startSandbox({ world: 'empty', clock: 'realtime' });
    started.push(s);
    const key = (await s.credentials()).teams[0]?.api_keys.sandbox ?? '';
    const waiting = s.waitForEvent((e) => e.envelope.event_type === 'provider.connection.created', { timeout: 10_000 });
    const user = (await (
      await fetch(`${s.url}/v2/user`, {
        method: 'POST',
        headers: { 'x-vital-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ client_user_id: 'waited' }),
      })
    ).json()) as { user_id: string };
    await fetch(`${s.url}/v2/link/connect/demo`, {
      method: 'POST',
      headers: { 'x-vital-api-key': key, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }),
    });
    const got = await waiting;
    expect(got.envelope.user_id).toBe(user.user_id);
    await expect(s.waitForEvent(() => false, { timeout: 1 })).rejects.toThrow('No matching event within 1 ms');
  });
});

describe('connectSandbox against the CLI', () => {
  it('--port 0 --json prints one JSON line with URLs, org, keys, teams, seed and clock, and nothing else', async () => {
    const run = await cli(['--port', '0', '--json', '--clock', 'manual', '--world', 'empty', '--seed', '3']);
    const info = JSON.parse(run.line) as {
      url: string;
      management_url: string;
      org_id: string;
      management_key: string;
      teams: unknown[];
      seed: number;
      clock: { now: string; mode: string };
    };
    expect(info.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info).toMatchObject({
      management_url: `${info.url}/management`,
      seed: 3,
      clock: { mode: 'manual', now: '2026-01-05T09:00:00.000Z' },
    });
    expect(info.teams.length).toBeGreaterThanOrEqual(2);
    const control = connectSandbox(info.url);
    expect((await control.credentials()).management_key).toBe(info.management_key);
    await exercise(control);
    expect(run.stdout().trim().split('\n')).toHaveLength(1);
  });

  it('a bad flag value or a port in use is one clear line on stderr and a non-zero exit', async () => {
    const bad = await cli(['--feed', 'sometimes']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr().trim().split('\n')).toEqual(['health-sandbox: --feed must be auto, on or off, got "sometimes" (see --help)']);
    const blocker = createServer();
    await new Promise<void>((done) => blocker.listen(0, '127.0.0.1', () => done()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = await cli(['--port', String(port), '--quiet']);
      expect(await busy.exit).toBe(1);
      expect(busy.stderr().trim()).toBe(`health-sandbox: cannot listen on 127.0.0.1:${port}: the port is in use`);
      expect(busy.stdout()).toBe('');
    } finally {
      blocker.close();
    }
  });

  it('--scenario boots a scenario file; a bad one exits with the path of the problem', async () => {
    const run = await cli(['--port', '0', '--json', '--clock', 'manual', '--scenario', 'scenarios/connections-in-error.json']);
    const info = JSON.parse(run.line) as { url: string; teams: Array<{ api_keys: { sandbox: string } }> };
    const users = await fetch(`${info.url}/v2/user`, { headers: { 'x-service-api-key': info.teams[0]?.api_keys.sandbox ?? '' } });
    expect(((await users.json()) as { total: number }).total).toBe(3);
    const bad = await cli(['--port', '0', '--scenario', 'package.json']);
    expect(await bad.exit).toBe(2);
    expect(bad.stderr()).toMatch(
      /^health-sandbox: --scenario: package\.json: name: Unrecognized key|^health-sandbox: --scenario: package\.json: \(file\)/,
    );
  });
});
