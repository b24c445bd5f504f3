/**
 * Stopping with the process that started the CLI (issue 32). When npm started it (`npm start`,
 * `npx health-sandbox`, a script running `health-sandbox`: see `startedByNpm`), a signal sent to the npm
 * process must stop the sandbox too: npm forwards SIGINT/SIGTERM to its child, but that child may
 * be a shell (`sh -c health-sandbox` under npx) that does not pass them on, and npm killed
 * outright forwards nothing. So the CLI watches its parent (its exit re-parents this process:
 * `process.ppid` changes) and, when the parent is a shell, the shell's parent as well (signal 0:
 * is it alive). A cheap unref'd check every 250 ms. Run directly (a shell, a CI step's background
 * job) the CLI does not watch: it outlives its shell, as servers do. Node only.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const CHECK_MS = 250;
const SHELLS = /^(sh|dash|bash|zsh|ash|ksh|busybox)$/;

/** A process's parent pid and command name (Linux /proc, else `ps`), or null. */
function processInfo(pid: number): { ppid: number; comm: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const ppid = Number(stat.slice(close + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? { ppid, comm } : null;
  } catch {
    try {
      // node:child_process only here (no /proc): loading it costs every start (BENCHMARKS.md, "Start-up").
      const { execFileSync } = createRequire(import.meta.url)('node:child_process') as typeof import('node:child_process');
      const out = execFileSync('ps', ['-o', 'ppid=,comm=', '-p', String(pid)], { encoding: 'utf8', timeout: 2000 }).trim();
      const m = /^(\d+)\s+(.+)$/.exec(out);
      return m ? { ppid: Number(m[1]), comm: (m[2] ?? '').split('/').pop() ?? '' } : null;
    } catch {
      return null;
    }
  }
}

/** Whether a process with this pid runs (EPERM: it runs, as another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether npm ran this CLI as its script: `npm_lifecycle_script` is what npm runs (`exec node
 * dist/cli.js` for `npm start`, `health-sandbox` for npx). Inherited by an unrelated process (a
 * test runner started with `npx vitest` spawning the CLI) it names something else: no watch.
 */
export function startedByNpm(env: NodeJS.ProcessEnv): boolean {
  const script = env.npm_lifecycle_script;
  return env.npm_lifecycle_event !== undefined && script !== undefined && /\bhealth-sandbox\b|\bcli\.js\b/.test(script);
}

/** Calls `onGone` once when the npm process that started the CLI is gone; does nothing when npm did not start it. */
export function watchParent(onGone: () => void, env: NodeJS.ProcessEnv = process.env): void {
  if (!startedByNpm(env)) return;
  const parent = process.ppid;
  const info = processInfo(parent);
  const grandparent = info !== null && SHELLS.test(info.comm) && info.ppid > 1 ? info.ppid : null;
  const timer = setInterval(() => {
    if (process.ppid === parent && (grandparent === null || alive(grandparent))) return;
    clearInterval(timer);
    onGone();
  }, CHECK_MS);
  timer.unref();
}
