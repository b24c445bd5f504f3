import { createSandbox } from './src/index.js';
async function main() {
  const a = createSandbox({ seed: 7 } as never) as any;
  await a.ready;
  const t0 = performance.now();
  const doc = a.exportWorld();
  const t1 = performance.now();
  const text = JSON.stringify(doc);
  console.log('export', doc.version, text.length, (t1 - t0).toFixed(1), 'ms');
  const b = createSandbox({ seed: 7 } as never) as any;
  await b.ready;
  const t2 = performance.now();
  await b.importWorld(JSON.parse(text));
  console.log('import', (performance.now() - t2).toFixed(1), 'ms');
  const again = JSON.stringify(b.exportWorld());
  console.log('same', again === text, again.length);
}
void main();
