/**
 * Time you can predict (issue 32): an endpoint without `filter_types` takes `daily.data.*`, which
 * turns the wearable feed on for its team environment. The advance's answer says how many events
 * and delivery attempts it caused, how many were feed events, which endpoints make the feed run,
 * and what to do (a note naming `filter_types`); with `filter_types` the same advance causes
 * nothing. The CLI's banner says the same when a scenario starts with a catch-all endpoint.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../../src/testing.js';
import { cliArgs } from '../support/cli-command.js';

const started: StartedSandbox[] = [];
const dir = mkdtempSync(join(tmpdir(), 'hs-time-'));
afterAll(async () => {
  for (const s of started) await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const SCENARIO = {
  world: 'empty' as const,
  webhooks: [{ receiver: 'everything' }],
  users: [{ client_user_id: 'fed', connections: [{ provider: 'oura' as const }] }],
};

describe('the advance says what it caused', () => {
  it('a catch-all endpoint: feed events and deliveries, the endpoint named, filter_types advised; with filter_types: nothing', async () => {
    const s = await startSandbox({ scenario: SCENARIO });
    started.push(s);
    const [endpoint] = (await s.webhooks.endpoints()).endpoints;
    expect(endpoint?.filter_types).toBeNull();

    const before = (await s.receiver('everything').deliveries()).length; // the scenario's own connection event
    const busy = await s.advance('6h');
    expect(busy.now).toBe('2026-01-05T15:00:00.000Z');
    expect(busy.caused.feed_events).toBeGreaterThan(0);
    expect(busy.caused.events).toBeGreaterThanOrEqual(busy.caused.feed_events);
    expect(busy.caused.deliveries).toBe(busy.caused.events);
    expect(busy.feed.mode).toBe('auto');
    expect(busy.feed.listeners).toEqual([
      {
        endpoint_id: endpoint?.id,
        team_id: endpoint?.team_id,
        environment: 'sandbox',
        url: `${s.url}/_sandbox/receiver/everything`,
        filter_types: null,
      },
    ]);
    expect(busy.feed.note).toMatch(/1 webhook endpoint has no filter_types/);
    expect(busy.feed.note).toMatch(/Give the endpoints filter_types/);
    // The deliveries the answer counts are the ones the receiver got.
    expect((await s.receiver('everything').deliveries()).length - before).toBe(busy.caused.deliveries);

    // The same world with the endpoint narrowed to what the test handles: time is quiet.
    const creds = await s.credentials();
    const team = creds.teams[0];
    const patched = await fetch(`${s.managementUrl}/v1/org/${creds.org_id}/team/${team?.team_id}/sandbox/webhook/${endpoint?.id}`, {
      method: 'PATCH',
      headers: { 'x-management-key': creds.management_key, 'content-type': 'application/json' },
      body: JSON.stringify({ filter_types: ['provider.connection.created'] }),
    });
    expect(patched.status).toBe(200);
    const quiet = await s.advance('6h');
    expect(quiet.caused).toEqual({ events: 0, feed_events: 0, deliveries: 0, expired_users: 0 });
    expect(quiet.feed).toEqual({ mode: 'auto', listeners: [], note: null });
  });

  it('the same requests give the same answers (the counts are deterministic)', async () => {
    const answers: unknown[] = [];
    for (let i = 0; i < 2; i++) {
      const s = await startSandbox({ scenario: SCENARIO });
      started.push(s);
      const a = await s.advance('4h');
      answers.push({ ...a, feed: { ...a.feed, listeners: a.feed.listeners.map((l) => ({ ...l, url: null })) } });
    }
    expect(answers[0]).toEqual(answers[1]);
  });

  it("the CLI's banner names the catch-all endpoints and filter_types when a scenario starts with one", { timeout: 60_000 }, async () => {
    const file = join(dir, 'catch-all.json');
    writeFileSync(file, JSON.stringify(SCENARIO));
    const proc = spawn(process.execPath, cliArgs(['--port', '0', '--clock', 'manual', '--scenario', file]), {
      env: { ...process.env, HEALTH_SANDBOX_PORT: '' },
    });
    const exited = new Promise((r) => proc.once('exit', r));
    let out = '';
    const banner = await new Promise<string>((resolve, reject) => {
      proc.stdout.on('data', (d) => {
        out += d;
        if (out.includes('sandbox time')) resolve(out);
      });
      proc.once('exit', () => reject(new Error(`exited: ${out}`)));
    });
    proc.kill('SIGTERM');
    await exited;
    expect(banner).toMatch(/Note: 1 webhook endpoint has no filter_types, .*wearable feed runs/);
  });
});
