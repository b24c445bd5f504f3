// Temporary: the feed's 1-day generation of two trees, interleaved in one process (CPU per event).
const trees = process.argv.slice(2);
const mods = await Promise.all(trees.map((t) => import(`${t}/src/index.ts`)));
const per: number[][] = trees.map(() => []);
const evs: number[] = trees.map(() => 0);
for (let round = 0; round < 12; round++) {
  for (let i = 0; i < mods.length; i++) {
    global.gc?.();
    const sandbox = mods[i].createSandbox({ seed: 1, logger: () => undefined, feed: 'on' });
    const before = sandbox.world.events.emitted;
    const cpu = process.cpuUsage();
    await sandbox.advance('1d');
    const used = process.cpuUsage(cpu);
    const events = sandbox.world.events.emitted - before;
    evs[i] = events;
    if (round >= 2) per[i]!.push((used.user + used.system) / 1000);
    sandbox.close();
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (let i = 0; i < trees.length; i++) {
  const m = median(per[i]!);
  console.log(`${trees[i]}: ${m.toFixed(1)} ms CPU/day (min ${Math.min(...per[i]!).toFixed(1)}), ${evs[i]} events, ${((m * 1000) / evs[i]!).toFixed(1)} us/event`);
}
