/**
 * npm installs the pack test keeps between runs (in the temporary directory, outside the repository): an
 * install of the same inputs (the packed tarball's bytes, by npm's integrity, the specs, flags
 * and scripts written beside them, node's version) on the same UTC day is the same tree, so it is
 * made once and every run after it checks that tree again (each of npm's installs is 2.5 to 4.5 s
 * of CPU, most of what the file costs; the tarball changes with every change of dist/, and then
 * the installs run again). `msw@^2` alone does not depend on the tarball: it is installed once a
 * day. A project is built in a directory of its own and renamed into place once whole, so a
 * second copy of the suite running beside this one uses a finished tree or builds its own.
 * `HEALTH_SANDBOX_SLOW_TESTS=1` (CI, `.ci/run`) installs afresh every time, as a clean clone does.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SLOW_TESTS } from '../support/run-size.js';

const DONE = '.installed';
const KEEP_MS = 10 * 60_000;

/** A stable key of everything that makes an install what it is. */
export function installKey(parts: readonly string[]): string {
  const day = new Date().toISOString().slice(0, 10);
  return createHash('sha256')
    .update(JSON.stringify([...parts, process.version, day]))
    .digest('hex')
    .slice(0, 24);
}

/**
 * The project `name` for `key` under `cache`: the kept one when a whole one is there (and CI is not
 * asking for a fresh install), else made by `make(dir)` (which writes the project's files and runs
 * npm in `dir`) and kept. `make` answering false (npm offline) keeps nothing. Under
 * `HEALTH_SANDBOX_SLOW_TESTS=1` the project is made in `scratch` and not kept.
 */
export async function cachedProject(
  cache: string,
  scratch: string,
  name: string,
  key: string,
  make: (dir: string) => Promise<boolean>,
): Promise<{ dir: string; reused: boolean } | false> {
  if (SLOW_TESTS) {
    const dir = join(scratch, name);
    mkdirSync(dir, { recursive: true });
    return (await make(dir)) && { dir, reused: false };
  }
  const kept = join(cache, `${name}-${key}`);
  if (existsSync(join(kept, DONE))) return { dir: kept, reused: true };
  mkdirSync(cache, { recursive: true });
  const building = join(cache, `.building-${name}-${process.pid}-${Date.now()}`);
  mkdirSync(building, { recursive: true });
  try {
    if (!(await make(building))) return false;
    writeFileSync(join(building, DONE), '');
    try {
      renameSync(building, kept);
    } catch {
      // Another run kept the same project first: use it.
      if (existsSync(join(kept, DONE))) return { dir: kept, reused: false };
      throw new Error(`cannot keep the installed project ${kept}`);
    }
    forgetOthers(cache, name, kept);
    return { dir: kept, reused: false };
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

/** Other kept trees of the same project (an older tarball, another day), once no run may be using them. */
function forgetOthers(cache: string, name: string, kept: string): void {
  for (const entry of readdirSync(cache)) {
    const at = join(cache, entry);
    if (at === kept || !(entry.startsWith(`${name}-`) || entry.startsWith(`.building-${name}-`))) continue;
    try {
      if (Date.now() - statSync(at).mtimeMs > KEEP_MS) rmSync(at, { recursive: true, force: true });
    } catch {
      // Gone already.
    }
  }
}
