/**
 * The served process's heap growth (issue 40, the hour-long soak): V8 sizes the old generation
 * between major collections as the live heap times a factor it picks from its own speed, up to 4x
 * under a high allocation rate, so a sandbox whose live heap is flat (about 170 MB under the soak's
 * mix) swung between 450 and 870 MB of RSS. A fixed factor of 2 (`--heap-growing-percent=100`)
 * keeps RSS near the live heap for a small cost in collections (docs/simulated/engine.md, "Memory").
 * A user's own `--heap-growing-percent` (on the command line or in NODE_OPTIONS) wins.
 *
 * The CLI sets it once it serves: its bundle is compiled from V8's code cache, which V8 keys on
 * its flags (scripts/cli-boot.mjs), and its world is built with V8's own sizing (a fixed factor
 * made the start about 10 ms slower). The build's run that writes the cache at exit
 * (`HEALTH_SANDBOX_CODE_CACHE_OUT`) leaves the flags as a start finds them, or every start would
 * refuse the cache. `node:v8` is loaded only then, after the start's ready line.
 */
import { createRequire } from 'node:module';

export const HEAP_GROWING_PERCENT = 100;

/** `node:v8`'s `setFlagsFromString`, loaded when called (once serving: the module is not part of the start). */
function setFlagsFromV8(flags: string): void {
  (createRequire(import.meta.url)('node:v8') as typeof import('node:v8')).setFlagsFromString(flags);
}

/** Sets the factor unless the user chose one; answers whether it did. */
export function boundHeapGrowth(
  env: NodeJS.ProcessEnv = process.env,
  execArgv: readonly string[] = process.execArgv,
  setFlags: (flags: string) => void = setFlagsFromV8,
): boolean {
  const chosen = [...execArgv, env.NODE_OPTIONS ?? ''].some((a) => /heap[-_]growing[-_]percent/.test(a));
  if (chosen || env.HEALTH_SANDBOX_CODE_CACHE_OUT) return false;
  setFlags(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
