/**
 * Vitest global setup: with `HEALTH_SANDBOX_CPU_LOG=<file>` (test/support/per-file.ts), one more
 * line when the run ends, `#main\t<user+system ms>\t<children ms>`: the vitest main process's own
 * CPU (its module transforms, the workers' RPC, the reporters) and that of the children it has
 * reaped by then (on Linux, from /proc/self/stat: the workers when the pool has already ended,
 * which varies from run to run, so only the first figure compares between runs). test/support/cpu-log.mjs prints it beside the files' total. Listed first among
 * the global setups, so its teardown runs last.
 */
import { appendFileSync, readFileSync } from 'node:fs';

/** Reaped children's user + system ms (fields 16 and 17 of /proc/self/stat, in clock ticks of 10 ms), or 0 elsewhere. */
function reapedChildrenMs(): number {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

export default function mainCpu(): (() => void) | undefined {
  const log = process.env['HEALTH_SANDBOX_CPU_LOG'];
  if (!log) return undefined;
  const cpu = process.cpuUsage();
  return () => {
    const used = process.cpuUsage(cpu);
    appendFileSync(log, `#main\t${((used.user + used.system) / 1000).toFixed(0)}\t${reapedChildrenMs()}\n`);
  };
}
