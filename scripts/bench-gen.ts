/**
 * Feed generation alone (issue 17): the default world (seed 1) with the wearable feed `on` and no
 * delivery (events go to the journal only), advanced one simulated day in several sandboxes in
 * turn in this process. Reports CPU per generated event (process.cpuUsage: user + system) for the
 * first sandbox (cold: the JIT compiles) and the later ones (warm), and the events per second of
 * CPU that rate allows. `npm run bench -- --gen` runs only this case.
 */
import { createSandbox } from '../src/index.js';

export async function benchGeneration(quick: boolean): Promise<void> {
  const runs = quick ? 4 : 8;
  const perRun: number[] = [];
  let events = 0;
  for (let i = 0; i < runs; i++) {
    global.gc?.();
    const sandbox = createSandbox({ seed: 1, logger: () => undefined, feed: 'on' });
    const before = sandbox.world.events.emitted;
    const cpu = process.cpuUsage();
    await sandbox.advance('1d');
    const used = process.cpuUsage(cpu);
    events = sandbox.world.events.emitted - before;
    perRun.push((used.user + used.system) / events);
    sandbox.close();
  }
  const warm = perRun.slice(2).sort((a, b) => a - b);
  const median = warm[Math.floor(warm.length / 2)] as number;
  const best = warm[0] as number;
  const rate = (us: number) => Math.round(1e6 / us).toLocaleString('en');
  console.log(
    `\nFeed generation alone: default world, feed on, no delivery, 1 simulated day (${events} events), ${runs} sandboxes in turn`,
  );
  console.log(`${'run'.padEnd(22)} ${'CPU us/event'.padStart(14)} ${'events/s of CPU'.padStart(16)}`);
  console.log(`${'1st (cold)'.padEnd(22)} ${(perRun[0] as number).toFixed(1).padStart(14)} ${rate(perRun[0] as number).padStart(16)}`);
  console.log(`${'2nd'.padEnd(22)} ${(perRun[1] as number).toFixed(1).padStart(14)} ${rate(perRun[1] as number).padStart(16)}`);
  console.log(`${'3rd on (warm) median'.padEnd(22)} ${median.toFixed(1).padStart(14)} ${rate(median).padStart(16)}`);
  console.log(`${'3rd on (warm) best'.padEnd(22)} ${best.toFixed(1).padStart(14)} ${rate(best).padStart(16)}`);
}
