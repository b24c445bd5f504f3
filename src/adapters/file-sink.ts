/**
 * The Node file sink behind `--data-dir`: appends text to a named file inside one directory.
 * Names come from the core already checked (segments of `[A-Za-z0-9._-]`, no `..`); the resolved
 * path is checked again here, so nothing is written outside the directory.
 */
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import type { FileSink } from '../state/webhooks/options.js';

export function directorySink(directory: string): FileSink {
  const root = resolve(directory);
  return {
    async append(name, text) {
      const target = resolve(root, name);
      const rel = relative(root, target);
      if (rel === '' || rel.startsWith('..') || isAbsolute(rel))
        throw Object.assign(new Error(`${name} is outside the data directory`), { code: 'EOUTSIDE' });
      await mkdir(dirname(target), { recursive: true });
      await appendFile(target, text, 'utf8');
    },
  };
}
