/** The command line: flags, environment variables, help, and a real start on a free port. */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CliError, FLAGS, envName, helpText, parseCli } from '../../src/adapters/cli-options.js';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// One process (no tsx/cli wrapper relaying signals to a child): the signal reaches the CLI itself.

describe('parseCli', () => {
  it('has the documented defaults', () => {
    expect(parseCli([], {})).toEqual({
      port: 4250,
      host: '127.0.0.1',
      seed: 1,
      users: 25,
      clock: 'realtime',
      timeScale: 1,
      startAt: undefined,
      limits: true,
      adminToken: undefined,
      help: false,
      world: 'default',
      feed: 'auto',
      labsProgression: 'clock',
      scenario: undefined,
      json: false,
      quiet: false,
      log: undefined,
      requestLogSize: 1000,
      requestLogBodies: false,

      command: 'serve',
      stateFile: undefined,
      worldFile: undefined,
      url: undefined,
    });
    expect(parseCli(['export', '--url', 'http://127.0.0.1:9'], {})).toMatchObject({ command: 'export', url: 'http://127.0.0.1:9' });
  });

  it('reads every flag, and each from HEALTH_SANDBOX_<NAME> when the flag is absent', () => {
    const argv = [
      '--port',
      '0',
      '--host',
      '0.0.0.0',
      '--seed',
      '7',
      '--users',
      '60',
      '--clock',
      'manual',
      '--time-scale',
      '60',
      '--start-at',
      '2026-02-01T00:00:00Z',
      '--limits',
      'off',
      '--admin-token',
      'tok',
      '--world',
      'empty',
      '--feed',
      'off',
      '--labs-progression',
      'manual',
      '--scenario',
      'scenarios/empty-team.yaml',
      '--cors',
      'https://app.example.com,http://localhost:5173',
    ];
    argv.push(
      '--data-dir',
      '/tmp/hs-data',
      '--delivery-timeout',
      '2',
      '--delivery-window',
      '8',
      '--webhook-allow',
      'hooks.example.com,127.0.0.1',
      '--pid-file',
      '/tmp/hs.pid',

      '--log',
      'json',
      '--request-log-size',
      '50',

      '--state-file',
      '/tmp/hs-world.state',
      '--world-file',
      'world.json',
      '--url',
      'http://127.0.0.1:4251',
    );
    const fromFlags = parseCli(argv, {});
    const env = Object.fromEntries(FLAGS.map((f) => [envName(f.name), argv[argv.indexOf(`--${f.name}`) + 1]]));
    expect(envName('time-scale')).toBe('HEALTH_SANDBOX_TIME_SCALE');
    expect(parseCli([], env)).toEqual(fromFlags);
    expect(fromFlags).toMatchObject({
      port: 0,
      host: '0.0.0.0',
      seed: 7,
      users: 60,
      clock: 'manual',
      timeScale: 60,
      limits: false,
      adminToken: 'tok',
      world: 'empty',
      feed: 'off',
      labsProgression: 'manual',
    });
    expect(fromFlags).toMatchObject({
      dataDir: '/tmp/hs-data',
      deliveryTimeout: 2,
      deliveryWindow: 8,
      webhookAllow: ['hooks.example.com', '127.0.0.1'],
      pidFile: '/tmp/hs.pid',

      log: 'json',
      requestLogSize: 50,

      stateFile: '/tmp/hs-world.state',
      worldFile: 'world.json',
      url: 'http://127.0.0.1:4251',
    });
    expect(parseCli(['--seed', '9'], { HEALTH_SANDBOX_SEED: '8' }).seed).toBe(9);
    expect(fromFlags.cors).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it('reads --cors alone as any origin, and leaves CORS off by default', () => {
    expect(parseCli([], {}).cors).toBeUndefined();
    expect(parseCli(['--cors'], {}).cors).toBe(true);
    expect(parseCli(['--cors', '--seed', '3'], {})).toMatchObject({ cors: true, seed: 3 });
    expect(parseCli(['--cors=*'], {}).cors).toBe(true);
    expect(() => parseCli(['--cors', 'not an origin'], {})).toThrow(CliError);
  });

  it.each([
    [['--port', 'eighty']],
    [['--port', '70000']],
    [['--clock', 'fast']],
    [['--limits', 'maybe']],
    [['--time-scale', '0']],
    [['--start-at', 'yesterday']],
    [['--bogus']],
    [['--delivery-timeout', '0']],
    [['--delivery-window', '0']],
    [['--delivery-window', '1.5']],
    [['--webhook-allow', ',']],
    [['--world', 'full']],
    [['--labs-progression', 'auto']],
    [['--feed', 'sometimes']],
    [['--log', 'loud']],
    [['--request-log-size', 'many']],
  ])('refuses %j with a clear error', (argv) => {
    expect(() => parseCli(argv, {})).toThrow(CliError);
  });

  it('lists every flag in --help', () => {
    const help = helpText();
    for (const f of FLAGS) {
      expect(help).toContain(`--${f.name}`);
      expect(help).toContain(envName(f.name));
    }
  });
});

describe('health-sandbox process', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    child?.kill('SIGTERM');
    child = undefined;
  });

  /** Starts the CLI and resolves with its stdout once the banner is out (its last line names the seed), or fails when it exits first. */
  async function start(args: string[]): Promise<string> {
    const proc = spawn(process.execPath, cliArgs(args), { cwd: root, env: { ...process.env, HEALTH_SANDBOX_PORT: '' } });
    child = proc;
    let out = '';
    let err = '';
    proc.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
    });
    return new Promise<string>((done, fail) => {
      const onData = (d: Buffer) => {
        out += d.toString();
        if (!out.includes('Seed ')) return;
        proc.stdout?.off('data', onData);
        done(out);
      };
      proc.stdout?.on('data', onData);
      proc.once('exit', () => fail(new Error(`CLI did not start: ${out} ${err}`)));
      proc.once('error', fail);
    });
  }

  it('starts on a free port and prints the base URL, management URL, org, keys and teams that work', async () => {
    const out = await start(['--port', '0', '--seed', '7', '--clock', 'manual']);
    const base = /Base URL:\s+(\S+)/.exec(out)?.[1] ?? '';
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(base).not.toMatch(/:0$/);
    expect(out).toContain(`Management URL:  ${base}/management`);
    const creds = (await (await fetch(`${base}/_sandbox/credentials`)).json()) as {
      org_id: string;
      management_key: string;
      teams: Array<{ team_id: string; region: string; api_keys: { sandbox: string; production: string } }>;
    };
    expect(out).toContain(creds.org_id);
    expect(out).toContain(creds.management_key);
    for (const team of creds.teams) {
      expect(out).toContain(team.team_id);
      expect(out).toContain(`region ${team.region}`);
      expect(out).toContain(team.api_keys.sandbox);
      expect(out).toContain(team.api_keys.production);
    }
    const users = await fetch(`${base}/v2/user`, { headers: { 'x-service-api-key': creds.teams[0]?.api_keys.sandbox ?? '' } });
    expect(((await users.json()) as { total: number }).total).toBe(25);
    const clock = (await (await fetch(`${base}/_sandbox/clock`)).json()) as { mode: string; now: string };
    expect(clock).toMatchObject({ mode: 'manual', now: '2026-01-05T09:00:00.000Z' });
  });

  it('runs as compiled JavaScript on plain Node (the package bin)', async () => {
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    const bin = resolve(root, pkg.bin['health-sandbox'] ?? '');
    expect(existsSync(bin), 'npm test builds dist/ before running vitest').toBe(true);
    const help = execFileSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help).toBe(helpText());
  });

  it('on SIGTERM stops accepting, finishes the request in flight and exits 0', async () => {
    const out = await start(['--port', '0', '--clock', 'manual']);
    const base = new URL(/Base URL:\s+(\S+)/.exec(out)?.[1] ?? '');
    const proc = child as ChildProcess;
    const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
    const body = '{"seconds": 60}';
    const answer = new Promise<{ status: number; text: string }>((resolveAnswer, reject) => {
      const req = httpRequest(
        {
          host: base.hostname,
          port: base.port,
          path: '/_sandbox/clock/advance',
          method: 'POST',
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => {
            text += d.toString();
          });
          res.on('end', () => resolveAnswer({ status: res.statusCode ?? 0, text }));
        },
      );
      req.on('error', reject);
      // Half the body now: the request is in flight when the signal arrives.
      req.write(body.slice(0, 5), () => {
        proc.kill('SIGTERM');
        setImmediate(() => req.end(body.slice(5)));
      });
    });
    const res = await answer;
    expect(res.status).toBe(200);
    expect(JSON.parse(res.text)).toHaveProperty('now');
    expect(await exited).toBe(0);
    child = undefined;
  });

  it('says so at start-up when --users above 50 lifts the cap', async () => {
    const out = await start(['--port', '0', '--users', '55', '--clock', 'manual']);
    expect(out).toMatch(/above the real sandbox's cap of 50/);
  });
});
