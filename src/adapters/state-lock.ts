/**
 * The state file's lock (`--state-file <path>` takes `<path>.lock`, docs/simulated/engine.md "The
 * state file"): created with O_EXCL before the file is read or the port bound, holding the pid of
 * the server that took it, removed when that server exits. A second server on the same file finds
 * the lock of a live pid and refuses to start (exit 2), touching nothing. A lock whose pid is no
 * longer running (the server was killed with SIGKILL) is stale: it is removed and taken. Taking
 * the lock also proves the location can be written: a read-only or missing directory refuses
 * the start instead of a server that keeps nothing.
 *
 * LIMITATIONS
 * - Liveness is `kill(pid, 0)` on this machine: a lock written on another host sharing the file
 *   (NFS), or a pid reused by an unrelated process since, reads as live; remove the lock file by
 *   hand then (the message names it).
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { alive } from './parent-watch.js';

export class StateLockError extends Error {}

/** Takes the lock of a state file; resolves with its release (also run at exit). */
export function lockStateFile(path: string): () => void {
  const lock = `${path}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(lock, 'wx', 0o644);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST')
        throw new StateLockError(
          `state file ${path}: its location cannot be written (${code ?? String(error)} on ${lock}); refusing to start`,
        );
      let pid = Number.NaN;
      try {
        pid = Number.parseInt(readFileSync(lock, 'utf8'), 10);
      } catch {
        // unreadable: treated as stale below only when it holds no pid
      }
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid))
        throw new StateLockError(
          `state file ${path} is in use by another health-sandbox (pid ${pid}, lock ${lock}); refusing to start (nothing was touched)`,
        );
      try {
        unlinkSync(lock); // stale: its server is gone
      } catch {
        // another start removed it first: try again
      }
      continue;
    }
    try {
      writeSync(fd, `${process.pid}\n`);
    } finally {
      closeSync(fd);
    }
    let held = true;
    const release = (): void => {
      if (!held) return;
      held = false;
      try {
        if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
      } catch {
        // already gone
      }
    };
    process.once('exit', release);
    return release;
  }
  throw new StateLockError(`state file ${path}: its lock ${lock} could not be taken; refusing to start`);
}

/** Whether the state file itself (when it exists) can be written; a StateLockError says why not. */
export function checkWritable(path: string): void {
  try {
    closeSync(openSync(path, 'r+'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new StateLockError(`state file ${path}: cannot be written (${code ?? String(error)}); refusing to start`);
  }
}
