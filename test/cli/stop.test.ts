/**
 * A process you can stop (issue 32): signalling the process a user started stops the sandbox,
 * whether the CLI was started directly, through `npx health-sandbox` (npm exec, a shell between
 * them) or through `npm start` (npm, prestart's build, then the CLI). Each start prints the
 * `--json` line and writes `--pid-file`; the test holds a TCP connection to the sandbox's port and
 * waits for it to close (the server closing, or the process gone) and for the started process to
 * exit: events, no timers. When npm itself is killed outright (no signal to forward), the CLI
 * notices its parent is gone and stops. Uses the compiled dist/ (`npm test` builds it first, so
 * `npm start`'s prestart build finds it fresh and skips). The four starts run side by side, each
 * cleaning up what it started: they mostly wait on npm.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { startedByNpm } from '../../src/adapters/parent-watch.js';

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const dir = mkdtempSync(join(tmpdir(), 'hs-stop-'));

/** The environment of a fresh shell: nothing inherited from an npm run of this suite. */
function shellEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) && !k.startsWith('HEALTH_SANDBOX_')) env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist/cli.js'))) {
    const build = spawn('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
    await once(build, 'exit');
  }
  // A consumer project with the package installed (linked): what `npx health-sandbox` finds.
  mkdirSync(join(dir, 'consumer/node_modules/.bin'), { recursive: true });
  symlinkSync(root, join(dir, 'consumer/node_modules/health-sandbox'), 'dir');
  symlinkSync('../health-sandbox/dist/cli.js', join(dir, 'consumer/node_modules/.bin/health-sandbox'));
  chmodSync(join(root, 'dist/cli.js'), 0o755); // as npm's bin linking does
}, 240_000);
/** Whatever a start left behind is stopped when its test ends (already gone, as it should be, when the test passed). */
function cleanUp(proc: ChildProcess, socket: Socket | undefined, pidFile: string): void {
  socket?.destroy();
  if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  let pid = Number.NaN;
  try {
    pid = Number(readFileSync(pidFile, 'utf8').trim());
  } catch {
    // No pid file: the CLI never started, or removed it as it stopped.
  }
  try {
    if (Number.isInteger(pid) && pid > 0) process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone, as it should be.
  }
}
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Running {
  proc: ChildProcess;
  exited: Promise<number | null>;
  url: string;
  /** The CLI's own pid, from --pid-file. */
  pid: number;
  pidFile: string;
  /** Resolves when a TCP connection held to the sandbox's port closes. */
  portClosed: Promise<void>;
}

/** Starts `command`; what it leaves behind is stopped when the test (`ctx`, its own in a concurrent block) ends. */
async function start(ctx: TestContext, command: string, args: string[], cwd: string, name: string): Promise<Running> {
  const pidFile = join(dir, `${name}.pid`);
  const proc = spawn(command, [...args, '--port', '0', '--json', '--clock', 'manual', '--world', 'empty', '--pid-file', pidFile], {
    cwd,
    env: shellEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let socket: Socket | undefined;
  ctx.onTestFinished(() => cleanUp(proc, socket, pidFile));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  let stderr = '';
  proc.stderr?.on('data', (d) => (stderr += d));
  // npm prints its own lines (`> health-sandbox@0.1.0 start`) before the CLI's one JSON line.
  const line = await new Promise<string>((r, reject) => {
    const lines = createInterface({ input: proc.stdout as NodeJS.ReadableStream });
    lines.on('line', (l) => {
      if (l.startsWith('{')) r(l);
    });
    proc.once('exit', () => reject(new Error(`${name} exited before listening: ${stderr}`)));
  });
  const { url } = JSON.parse(line) as { url: string };
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  const held = connect(Number(new URL(url).port), '127.0.0.1');
  socket = held;
  // A server that stops may reset the held connection instead of closing it: either way it closes.
  held.on('error', () => undefined);
  await once(held, 'connect');
  const portClosed = once(held, 'close').then(() => undefined);
  return { proc, exited, url, pid, pidFile, portClosed };
}

describe.concurrent('stopping the sandbox by the process one started', () => {
  it('run directly: SIGTERM to the CLI stops it, exit 0, the pid file removed', { timeout: 60_000 }, async (ctx) => {
    const run = await start(ctx, process.execPath, [join(root, 'dist/cli.js')], dir, 'direct');
    expect(run.pid).toBe(run.proc.pid);
    run.proc.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    await run.portClosed;
    expect(existsSync(run.pidFile)).toBe(false);
  });

  it('through npx: SIGTERM to npx stops the CLI it started', { timeout: 120_000 }, async (ctx) => {
    const run = await start(ctx, 'npx', ['health-sandbox'], join(dir, 'consumer'), 'npx');
    expect(run.pid).not.toBe(run.proc.pid);
    run.proc.kill('SIGTERM');
    await run.portClosed;
    await run.exited;
  });

  it('through npx: npx killed outright (SIGKILL, nothing forwarded), the CLI sees its parent gone and stops', {
    timeout: 120_000,
  }, async (ctx) => {
    const run = await start(ctx, 'npx', ['health-sandbox'], join(dir, 'consumer'), 'npx-kill');
    run.proc.kill('SIGKILL');
    await run.exited;
    await run.portClosed;
  });

  it('through npm start (prestart builds first): SIGTERM to npm stops the CLI', { timeout: 240_000 }, async (ctx) => {
    const run = await start(ctx, 'npm', ['start', '--'], root, 'npm-start');
    expect(run.pid).not.toBe(run.proc.pid);
    run.proc.kill('SIGTERM');
    await run.portClosed;
    await run.exited;
  });
});

describe('when the CLI watches its parent', () => {
  it('only when npm ran it as its script, not when a runner npm started spawns it', () => {
    expect(startedByNpm({ npm_lifecycle_event: 'start', npm_lifecycle_script: 'exec node dist/cli.js' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'npx', npm_lifecycle_script: 'health-sandbox' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'e2e', npm_lifecycle_script: 'health-sandbox --port 0 & playwright test' })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: 'npx', npm_lifecycle_script: 'vitest' })).toBe(false);
    expect(startedByNpm({ npm_lifecycle_event: 'test', npm_lifecycle_script: 'node scripts/test.mjs' })).toBe(false);
    expect(startedByNpm({})).toBe(false);
  });
});
