/**
 * Issue 40 ("a clean SIGTERM at any log size exits 0") and issue 47 (a restart "cannot even be
 * stopped with SIGTERM meanwhile"): the CLI started on a state file whose world takes long to
 * rebuild (an old, version 2 file of 400,000 inputs, replayed from its build) says it is
 * restoring, and a SIGTERM then stops it with exit 0 before it serves anything: the replay lets
 * the event loop turn, so the signal is heard. The file is left as it was.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { stateFileSink } from '../../src/adapters/state-file.js';
import type { LogEntry } from '../../src/engine/persist.js';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

it('a SIGTERM while a long saved world is rebuilt exits 0 before it serves, and leaves the file as it was', async () => {
  const path = join(mkdtempSync(join(tmpdir(), 'hs-restore-stop-')), 'world.state');
  const log: LogEntry[] = Array.from({ length: 400_000 }, () => ({ k: 'adv', ms: 0 }));
  const build = {
    seed: 3,
    scenario: null,
    users: 0,
    usersElsewhere: 0,
    limits: true,
    feed: 'off',
    world: 'empty',
    startAt: Date.parse('2026-01-05T09:00:00Z'),
  } as const;
  const sink = stateFileSink(path);
  sink.write({ format: 'health-sandbox-world', version: 2, build, log });
  sink.close();
  const before = readFileSync(path);

  const proc = spawn(process.execPath, cliArgs(['--state-file', path, '--port', '0', '--json', '--clock', 'manual']), {
    cwd: root,
    env: { ...process.env, HEALTH_SANDBOX_PORT: '' },
  });
  let stdout = '';
  let stderr = '';
  proc.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  const restoring = new Promise<void>((resolve) => {
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (/restoring .*400000 inputs/.test(stderr)) resolve();
    });
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  await restoring;
  proc.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(stderr).toMatch(/SIGTERM: stopping/);
  // Stopped while rebuilding: no start line was printed (nothing was served).
  expect(stdout).toBe('');
  expect(readFileSync(path).equals(before)).toBe(true);
}, 60_000);
