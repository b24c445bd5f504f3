/**
 * Recipe: a CI job starts the CLI with `--port 0 --json`, reads its one JSON line for the URL and
 * keys, and tests steer it with `connectSandbox`. (In CI, docs/testing.md: the step waits for that
 * line with `head -n 1` from a fifo, not for a time, and `--pid-file` gives the pid to stop it.)
 * In your project: `import { connectSandbox } from 'health-sandbox/testing'`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connectSandbox, type SandboxControl } from '../src/testing.js';
import { cliArgs } from '../test/support/cli-command.js';
import { ownTeam } from './own-team.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
let child: ChildProcess;
let control: SandboxControl;

describe('recipe: CI with the CLI server', () => {
  beforeAll(async () => {
    // In a project: spawn('npx', ['health-sandbox', '--port', '0', '--json', '--clock', 'manual', '--world', 'empty']).
    // Here: the package's bin as npx runs it, the compiled dist/cli.js on plain Node (the source
    // through tsx when dist/ is older than src/, see test/support/cli-command.ts).
    child = spawn(process.execPath, cliArgs(['--port', '0', '--json', '--clock', 'manual', '--world', 'empty']), { cwd: root });
    const first = await new Promise<string>((done, fail) => {
      createInterface({ input: child.stdout! }).once('line', done);
      child.once('exit', (code) => fail(new Error(`CLI exited with ${code}`)));
    });
    const info = JSON.parse(first) as { url: string };
    control = connectSandbox(info.url);
  });
  afterAll(() => {
    child.kill('SIGTERM');
  });
  beforeEach(() => control.reset());

  it('moves the clock and sees the events', async () => {
    const { apiKey } = await ownTeam(control);
    const res = await fetch(`${control.url}/v2/user`, {
      method: 'POST',
      headers: { 'x-vital-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ client_user_id: 'ci-user' }),
    });
    const { user_id } = (await res.json()) as { user_id: string };
    await fetch(`${control.url}/v2/link/connect/demo`, {
      method: 'POST',
      headers: { 'x-vital-api-key': apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ user_id, provider: 'fitbit' }),
    });
    const clock = await control.advance('2h');
    expect(clock.now).toBe('2026-01-05T11:00:00.000Z');
    const events = await control.events({ user_id, event_type: 'provider.connection.created' });
    expect(events).toHaveLength(1);
  });
});
