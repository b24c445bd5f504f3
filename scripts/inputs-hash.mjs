/**
 * The build steps' stamp: a SHA-256 of every file under `dirs` and of `files` (paths and contents,
 * in a fixed order; an absent file hashes as absent), then `extra` lines (versions, the platform).
 * A step whose stamp matches the one it wrote last time skips (scripts/build.mjs, build-binary.mjs).
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @param {{ root: string, dirs: string[], files: string[], extra?: string[] }} inputs */
export function inputsHash({ root, dirs, files, extra = [] }) {
  const hash = createHash('sha256');
  const add = (path) => {
    hash.update(`${path}\0`);
    hash.update(existsSync(join(root, path)) ? readFileSync(join(root, path)) : '(absent)');
    hash.update('\0');
  };
  const walk = (dir) => {
    for (const e of readdirSync(join(root, dir), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (e.isDirectory()) walk(`${dir}/${e.name}`);
      else add(`${dir}/${e.name}`);
    }
  };
  for (const dir of dirs) walk(dir);
  for (const f of files) add(f);
  for (const line of extra) hash.update(`${line}\n`);
  return hash.digest('hex');
}
