/**
 * The Node file sink behind `--data-dir`: appends text to a named file inside one directory.
 * Names come from the core already checked (segments of `[A-Za-z0-9._-]`, no `..`); the resolved
 * path is checked again here, so nothing is written outside the directory. Symbolic links placed
 * inside the directory are not followed: each directory below the root is checked with `lstat`
 * (created when missing) and the file is opened with `O_NOFOLLOW`, so a link to `/etc/...` or to a
 * directory elsewhere is refused (`ELOOP` / `ESYMLINK`) instead of written through. The root
 * itself may be a link (the user chose it).
 *
 * LIMITATIONS
 * - A directory swapped for a link between the check and the open is not caught (a local
 *   attacker racing the sandbox on its own data directory); the file itself never is followed.
 * - Where the platform has no `O_NOFOLLOW` (Windows), the file is checked with `lstat` first.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { FileSink } from '../state/webhooks/options.js';

function refused(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

/** `lstat`, or null when nothing is there. */
async function lstatOrNull(path: string): Promise<Awaited<ReturnType<typeof lstat>> | null> {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Creates (or checks) each directory between the root and the file, refusing links. */
async function realDirectories(root: string, rel: string): Promise<void> {
  const parts = rel.split(sep).slice(0, -1);
  let dir = root;
  for (const part of parts) {
    dir = resolve(dir, part);
    const stat = await lstatOrNull(dir);
    if (stat === null) {
      await mkdir(dir).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'EEXIST') throw error;
      });
      const made = await lstat(dir);
      if (!made.isDirectory()) throw refused(`${dir} in the data directory is not a directory`, 'ENOTDIR');
    } else if (stat.isSymbolicLink()) {
      throw refused(`${dir} in the data directory is a symbolic link: not followed`, 'ESYMLINK');
    } else if (!stat.isDirectory()) {
      throw refused(`${dir} in the data directory is not a directory`, 'ENOTDIR');
    }
  }
}

const NOFOLLOW = constants.O_NOFOLLOW as number | undefined;

export function directorySink(directory: string): FileSink {
  const root = resolve(directory);
  return {
    async append(name, text) {
      const target = resolve(root, name);
      const rel = relative(root, target);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
        throw Object.assign(new Error(`${name} is outside the data directory`), { code: 'EOUTSIDE' });
      await mkdir(root, { recursive: true });
      await realDirectories(root, rel);
      if (NOFOLLOW === undefined && (await lstatOrNull(target))?.isSymbolicLink())
        throw refused(`${target} in the data directory is a symbolic link: not followed`, 'ESYMLINK');
      const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (NOFOLLOW ?? 0);
      const file = await open(target, flags, 0o644);
      try {
        await file.appendFile(text, 'utf8');
      } finally {
        await file.close();
      }
    },
  };
}
