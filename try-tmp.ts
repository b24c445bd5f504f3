import { createSandbox } from './src/index.js';
async function main() {
  const a = createSandbox({ seed: 3, startAt: '2026-01-05T09:00:00Z' } as never) as any;
  await a.ready;
  await a.advance(60);
  a.snapshot('one');
  await a.advance(60);
  await a.restore('one');
  console.log('restored', a.world.clock.iso());
  const doc = a.exportWorld();
  console.log(doc.version, !!doc.state, doc.log.length, JSON.stringify(doc.state).slice(0, 200));
  a.reset(8);
  await a.importWorld(JSON.parse(JSON.stringify(doc)));
  console.log('imported', a.world.clock.iso());
}
void main();
