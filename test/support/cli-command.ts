/**
 * How tests start the CLI: the compiled `dist/cli.js` when the build is newer than every source
 * file (`npm test` builds it first: a compiled start takes a fraction of tsx's; the bundle step,
 * scripts/build.mjs, rewrites `dist/cli.js` on every build, or refreshes its time when it skips
 * a build whose inputs have not changed, so its time tells when the JavaScript was last known to
 * match src), otherwise the source
 * through tsx in the same process (`node --import tsx src/cli.ts`, so signals reach the CLI
 * itself, not a wrapper).
 */
import { readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function compiledIsFresh(): boolean {
  try {
    return statSync(join(root, 'dist/cli.js')).mtimeMs >= newest(join(root, 'src'));
  } catch {
    return false;
  }
}

const compiled = compiledIsFresh();

/** Node arguments that run the CLI with `args`. */
export function cliArgs(args: readonly string[]): string[] {
  return compiled ? [join(root, 'dist/cli.js'), ...args] : ['--import', 'tsx', join(root, 'src/cli.ts'), ...args];
}
