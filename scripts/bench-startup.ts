/**
 * Start-up (issue 33), each against its baseline in the same run, rounds interleaved, median of
 * the rounds (the machine is shared: absolute figures move with the load, the ratios less):
 * - `import('health-sandbox')` (the compiled dist/index.js) in a fresh Node process against
 *   `import('msw')` in a fresh Node process: the time of the import itself;
 * - CLI ready: spawn `node dist/cli.js --port 0 --json` to its `--json` line, against spawning a
 *   bare `node:http` server to its "listening" line.
 * Needs the build (`npm run build`). `npm run bench -- --startup` runs only these.
 * `--before <dir>`: also measures another checkout's build (`<dir>/dist`, e.g. the commit before
 * a change) in the same rounds, so a change is measured against what it replaced in one run.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Took {
  /** Wall milliseconds. */
  ms: number;
  /** CPU milliseconds (user + system) of the child over the same span. */
  cpu: number;
}

/** What the child reports for `await import(spec)`: wall and CPU time of the import alone. */
function importTime(spec: string): Promise<Took> {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(spec)}); const u = process.cpuUsage(c); console.log(JSON.stringify({ ms: performance.now() - t, cpu: (u.user + u.system) / 1000 }));`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.once('exit', (status) => (status === 0 ? done(JSON.parse(out) as Took) : fail(new Error(`import ${spec}: exit ${status}`))));
  });
}

/** How many zod schemas `await import(spec)` builds (zod's post-processor hook counts them); the start-up's largest cost once. */
function schemasBuilt(spec: string): Promise<number> {
  const code = `let n = 0; globalThis.__zod_globalConfig = { postProcessor: () => n++ }; await import(${JSON.stringify(spec)}); console.log(n);`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.once('exit', (status) => (status === 0 ? done(Number(out)) : fail(new Error(`import ${spec}: exit ${status}`))));
  });
}

const BARE = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ port: this.address().port })); });`;

/** CPU milliseconds a process has used so far (Linux: /proc/<pid>/stat; NaN elsewhere). */
function cpuOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

/** From spawn to the first stdout line that is a JSON object; the child is then stopped. */
function readyTime(args: string[]): Promise<Took> {
  const start = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let took: Took | null = null;
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (took === null && /^\{.*\}$/m.test(out)) {
        took = { ms: Number(process.hrtime.bigint() - start) / 1e6, cpu: cpuOf(child.pid) };
        child.kill('SIGKILL');
      }
    });
    child.once('exit', (status) => (took === null ? fail(new Error(`${args[0]}: exit ${status} before ready`)) : done(took)));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};
const ms = (xs: Took[]): number => median(xs.map((x) => x.ms));
const cpu = (xs: Took[]): number => median(xs.map((x) => x.cpu));

export async function benchStartup(quick: boolean): Promise<void> {
  const index = join(root, 'dist/index.js');
  const cli = join(root, 'dist/cli.js');
  if (!existsSync(index) || !existsSync(cli)) {
    console.log('\nStart-up: dist/ is missing (npm run build first): skipped');
    return;
  }
  const rounds = quick ? 3 : 7;
  const at = process.argv.indexOf('--before');
  const before = at > 0 ? resolve(process.argv[at + 1] ?? '.') : undefined;
  const msw: Took[] = [];
  const ours: Took[] = [];
  const bare: Took[] = [];
  const ready: Took[] = [];
  const oursBefore: Took[] = [];
  const readyBefore: Took[] = [];
  for (let r = 0; r < rounds; r++) {
    msw.push(await importTime('msw'));
    ours.push(await importTime(index));
    if (before !== undefined) oursBefore.push(await importTime(join(before, 'dist/index.js')));
    bare.push(await readyTime(['-e', BARE]));
    ready.push(await readyTime([cli, '--port', '0', '--json']));
    if (before !== undefined) readyBefore.push(await readyTime([join(before, 'dist/cli.js'), '--port', '0', '--json']));
  }
  const row = (name: string, base: string, b: Took[], x: Took[], goal: string): void =>
    console.log(
      `${name.padEnd(44)} ${base.padEnd(34)} ${`${ms(b).toFixed(0)} ms`.padStart(8)} ${`${ms(x).toFixed(0)} ms`.padStart(8)} ${`${(ms(x) / ms(b)).toFixed(2)}x`.padStart(7)} ${`${cpu(b).toFixed(0)} ms`.padStart(8)} ${`${cpu(x).toFixed(0)} ms`.padStart(8)} ${`${(cpu(x) / cpu(b)).toFixed(2)}x`.padStart(7)}  goal ${goal}`,
    );
  console.log(`\nStart-up (median of ${rounds} interleaved rounds; wall time, then the child's CPU time over the same span)`);
  console.log(
    `${'case'.padEnd(44)} ${'baseline'.padEnd(34)} ${'base'.padStart(8)} ${'ours'.padStart(8)} ${'ratio'.padStart(7)} ${'base CPU'.padStart(8)} ${'ours CPU'.padStart(8)} ${'ratio'.padStart(7)}`,
  );
  row("import('health-sandbox') (dist/index.js)", "import('msw')", msw, ours, '<= 1x');
  row('CLI ready: spawn to the --json line', 'bare node:http spawn to listening', bare, ready, '<= 2x (issue 45)');
  const built = [`${await schemasBuilt(index)}`];
  if (before !== undefined) built.push(`${await schemasBuilt(join(before, 'dist/index.js'))} before`);
  console.log(
    `zod schemas built by the import: ${built.join(', ')} (module-scope schemas are built on first use: src/engine/lazy-schema.ts)`,
  );
  if (before !== undefined) {
    row("  the same import, before (--before's dist)", "import('msw')", msw, oursBefore, '<= 1x');
    row('  CLI ready, before (--before dist/cli.js)', 'bare node:http spawn to listening', bare, readyBefore, '<= 2x (issue 45)');
  }
}

if (process.argv[1]?.endsWith('bench-startup.ts')) await benchStartup(process.argv.includes('--quick'));
