/**
 * The terminal log: `--log pretty|json|off` and the request-journal flags parse; each request is
 * one line (pretty: time, method, path, status, duration, team, route; a 404's near misses and a
 * 422's fields under it; json: one object per line), keys masked; the CLI writes JSON lines on
 * stderr when asked (and nothing by default off a terminal); progress of a large build and a long advance.
 */
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CliError, parseCli } from '../../src/adapters/cli-options.js';
import { terminal, withBuildProgress, watchAdvances } from '../../src/adapters/progress.js';
import { jsonLine, prettyLine, requestLogger } from '../../src/adapters/request-log.js';
import type { Sandbox } from '../../src/index.js';
import type { RequestRecord } from '../../src/engine/journal.js';
import { cliArgs } from '../support/cli-command.js';
import { journalClient } from './support.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('flags', () => {
  it('parses --log, --request-log-size and --request-log-bodies (and their environment variables)', () => {
    expect(parseCli([], {})).toMatchObject({ log: undefined, requestLogSize: 1000, requestLogBodies: false });
    expect(parseCli(['--log', 'json', '--request-log-size', '5', '--request-log-bodies'], {})).toMatchObject({
      log: 'json',
      requestLogSize: 5,
      requestLogBodies: true,
    });
    expect(parseCli([], { HEALTH_SANDBOX_LOG: 'off', HEALTH_SANDBOX_REQUEST_LOG_BODIES: '1' })).toMatchObject({
      log: 'off',
      requestLogBodies: true,
    });
    expect(() => parseCli(['--log', 'loud'], {})).toThrow(CliError);
    expect(() => parseCli(['--request-log-size', '-1'], {})).toThrow(CliError);
  });
});

describe('lines', () => {
  it('one line per request, near misses and 422 fields under it, keys masked', async () => {
    const { c } = journalClient('msw');
    const records: RequestRecord[] = [];
    c.sandbox.requests.subscribe((r) => records.push(r));
    const written: string[] = [];
    c.sandbox.requests.subscribe(requestLogger('pretty', (line) => written.push(line))!);
    await c.get('/v2/user', { query: { limit: 2 } });
    await c.get('/v2/usr');
    await c.get('/v2/user', { query: { limit: 'x', token: 'sk_us_secretsecretsecret' } });
    expect(records).toHaveLength(3);
    const [ok, miss, bad] = records.map((r) => prettyLine(r));
    const team = c.creds.teams[0]!.team_id.slice(0, 8);
    expect(ok).toBe(`2026-01-05 09:00:00 GET /v2/user?limit=2 200 2.0 ms team ${team}/sandbox users.list`);
    expect(miss).toBe('2026-01-05 09:00:00 GET /v2/usr 404 2.0 ms no route\n    nearly: GET /v2/user ("user", not "usr")');
    expect(bad).toContain('422');
    expect(bad).toContain('invalid: query.limit');
    expect(bad).not.toContain('secretsecret');
    expect(written.join('')).toBe(`${[ok, miss, bad].join('\n')}\n`);
    expect(prettyLine(records[0]!, true)).toContain('\u001b[32m200\u001b[0m');
    const json = JSON.parse(jsonLine(records[1]!));
    expect(json).toMatchObject({ method: 'GET', path: '/v2/usr', status: 404, duration_ms: 2, route_id: null });
    expect(json.near_misses[0]).toBe('GET /v2/user');
    expect(requestLogger('off', () => undefined)).toBeUndefined();
  });
});

describe('deliveries to the test receivers', () => {
  it('are summed up per receiver before the advance line, not one line each', async () => {
    const { c } = journalClient('msw', { users: 3, feed: 'on' });
    const written: string[] = [];
    const log = requestLogger('pretty', (line) => written.push(line))!;
    const deliveries: RequestRecord[] = [];
    c.sandbox.requests.subscribe((r) => (r.routeId === 'sandbox.receiver.receive' ? deliveries.push(r) : undefined));
    c.sandbox.requests.subscribe(log);
    const creds = c.creds;
    const team = creds.teams[0]!;
    const hook = await c.mgmt('POST', `/v1/org/${creds.org_id}/team/${team.team_id}/sandbox/webhook`, {
      body: { url: `${creds.base_url}/_sandbox/receiver/hooks` },
    });
    expect(hook.status).toBe(200);
    await c.put('/_sandbox/receiver/hooks', { status: 500, times: 2 });
    written.length = 0;
    expect((await c.post('/_sandbox/clock/advance', { duration: '2d' })).status).toBe(200);
    await c.sandbox.settle();
    log.flush();
    expect(deliveries.length).toBeGreaterThan(2);
    const summaries = written.filter((l) => l.includes('to the test receiver'));
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatch(
      new RegExp(
        `^2026-01-0\\d \\d\\d:\\d\\d:\\d\\d to 2026-01-0\\d \\d\\d:\\d\\d:\\d\\d: ${deliveries.length} deliveries to the test receiver /_sandbox/receiver/hooks \\(\\d+ 200, 2 500\\)\\n$`,
      ),
    );
    expect(written.filter((l) => l.includes('POST /_sandbox/receiver/'))).toEqual([]);
    // The summary comes before the advance's own line.
    const advance = written.findIndex((l) => l.includes('POST /_sandbox/clock/advance'));
    expect(advance).toBeGreaterThan(written.indexOf(summaries[0]!));
  });
});

describe('the terminal shared by the log and the progress line', () => {
  it('a log line clears the progress line, is written whole, and the progress line comes back under it', () => {
    const out: string[] = [];
    const t = terminal((text) => out.push(text));
    t.line('before\n');
    t.status('advancing the clock: sandbox time 2026-01-06T00:00:00.000Z, 5 jobs pending');
    t.line('2026-01-06 00:00:00 GET /v2/user 200 1.0 ms\n');
    t.done('advanced the clock\n');
    t.line('after\n');
    expect(out).toEqual([
      'before\n',
      '\r\u001b[2Kadvancing the clock: sandbox time 2026-01-06T00:00:00.000Z, 5 jobs pending',
      '\r\u001b[2K2026-01-06 00:00:00 GET /v2/user 200 1.0 ms\nadvancing the clock: sandbox time 2026-01-06T00:00:00.000Z, 5 jobs pending',
      '\r\u001b[2Kadvanced the clock\n',
      'after\n',
    ]);
    // Every log line starts on a line of its own: never after the progress text.
    const screen = out.join('').split(/\r\u001b\[2K/);
    for (const part of screen) expect(part.includes('jobs pending2026')).toBe(false);
  });
});

describe('the CLI', () => {
  let stop: (() => void) | undefined;
  afterEach(() => stop?.());

  it('writes JSON lines on stderr with --log json', async () => {
    const proc = spawn(process.execPath, cliArgs(['--port', '0', '--clock', 'manual', '--log', 'json', '--json']), {
      cwd: root,
      env: { ...process.env, HEALTH_SANDBOX_PORT: '' },
    });
    stop = () => proc.kill('SIGTERM');
    let err = '';
    const start = await new Promise<{ url: string; teams: Array<{ api_keys: { sandbox: string } }> }>((done, fail) => {
      let out = '';
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('\n')) done(JSON.parse(out));
      });
      proc.once('exit', () => fail(new Error(`CLI did not start: ${out}`)));
    });
    const line = new Promise<string>((done) =>
      proc.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        if (err.includes('\n')) done(err.split('\n')[0]!);
      }),
    );
    const key = start.teams[0]!.api_keys.sandbox;
    await fetch(`${start.url}/v2/user`, { headers: { 'x-vital-api-key': key } });
    const entry = JSON.parse(await line);
    expect(entry).toMatchObject({ method: 'GET', path: '/v2/user', status: 200, route_id: 'users.list', environment: 'sandbox' });
    expect(await line).not.toContain(key);
  }, 30_000);
});

describe('progress on a terminal', () => {
  it('tells how long a large world took to build; a small one builds silently', () => {
    const out: string[] = [];
    expect(
      withBuildProgress(
        100_000,
        (t) => out.push(t),
        () => 42,
      ),
    ).toBe(42);
    expect(out[0]).toBe('health-sandbox: building a world of 100,000 users...');
    expect(out[1]).toMatch(/^ done in \d+\.\d s\n$/);
    withBuildProgress(
      25,
      (t) => out.push(t),
      () => 0,
    );
    expect(out).toHaveLength(2);
  });

  it('redraws one line while an advance runs past a second, then sums it up', () => {
    vi.useFakeTimers();
    try {
      let t = 0;
      const state = { running: false, iso: '2026-01-05T09:00:00.000Z' };
      const fake = {
        world: {
          scheduler: {
            get running() {
              return state.running;
            },
            pending: () => 1234,
          },
          clock: { iso: () => state.iso },
        },
      } as unknown as Sandbox;
      const out: string[] = [];
      const stop = watchAdvances(
        fake,
        (text) => out.push(text),
        () => t,
      );
      state.running = true;
      vi.advanceTimersByTime(250);
      t = 1500;
      state.iso = '2026-01-08T09:00:00.000Z';
      vi.advanceTimersByTime(250);
      expect(out).toEqual(['\r\u001b[2Kadvancing the clock: sandbox time 2026-01-08T09:00:00.000Z, 1,234 jobs pending']);
      state.running = false;
      t = 2000;
      vi.advanceTimersByTime(250);
      expect(out[1]).toBe('\r\u001b[2Kadvanced the clock from 2026-01-05T09:00:00.000Z to 2026-01-08T09:00:00.000Z in 2.0 s\n');
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
