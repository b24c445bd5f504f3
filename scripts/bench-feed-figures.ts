/**
 * Issue 42's bound (`npm run bench`'s world build and feed figures within 1.2x of before its
 * work), measured alone: the default world's build (seed 1, 1,000 users), the feed generation
 * alone (bench-gen.ts: the default world with the feed on, one simulated day, CPU per event and
 * per sandbox, the median of the warm sandboxes) and the default world advanced three days with
 * the feed on (the journal only). One line of figures per run, so two source trees can be run in
 * turn and compared (`node --expose-gc --import tsx scripts/bench-feed-figures.ts [--runs 6]`;
 * copy the file into the other tree: it uses only `createSandbox`).
 *
 * `--skip N` (default 2): the feed sandboxes left out of the generation figures. With 10 runs the
 * sandboxes counted (3 to 10) are still being optimised by V8 (flat with `--no-opt --no-maglev`;
 * `--trace-opt` shows the feed's functions compiled again up to the seventh), so the default
 * figure holds compile time; `--runs 24 --skip 12` gives the warm figure.
 */
import { createSandbox } from '../src/index.js';

function option(name: string, fallback: number): number {
  const at = process.argv.indexOf(name);
  const value = at > 0 ? Number(process.argv[at + 1]) : Number.NaN;
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

async function main(): Promise<void> {
  const runs = option('--runs', 6);
  const skip = process.argv.includes('--skip') ? Math.min(option('--skip', 2), runs - 1) : 2;
  const builds: number[] = [];
  for (let i = 0; i < 3; i++) {
    global.gc?.();
    const start = performance.now();
    const sandbox = createSandbox({ seed: 1, users: 1_000, logger: () => undefined });
    builds.push(performance.now() - start);
    sandbox.close();
  }
  const day: number[] = [];
  const perEvent: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    global.gc?.();
    const sandbox = createSandbox({ seed: 1, logger: () => undefined, feed: 'on' });
    const before = sandbox.world.events.emitted;
    const cpu = process.cpuUsage();
    await sandbox.advance('1d');
    const used = cpuMs(process.cpuUsage(cpu));
    events = sandbox.world.events.emitted - before;
    if (i >= skip) {
      day.push(used);
      perEvent.push((used * 1000) / events);
    }
    sandbox.close();
  }
  global.gc?.();
  const sandbox = createSandbox({ seed: 1, logger: () => undefined, feed: 'on' });
  const start = performance.now();
  const before = sandbox.world.events.emitted;
  await sandbox.advance('3d');
  const threeDays = performance.now() - start;
  const events3 = sandbox.world.events.emitted - before;
  sandbox.close();
  console.log(
    `build 1k ${median(builds).toFixed(0)} ms | gen 1 day ${median(day).toFixed(0)} ms CPU, ${events} events, ${median(perEvent).toFixed(1)} us/event | feed on 3 days ${threeDays.toFixed(0)} ms, ${events3} events`,
  );
}

void main();
