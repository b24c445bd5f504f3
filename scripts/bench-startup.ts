/**
 * Start-up (issue 33), each against its baseline in the same run, rounds interleaved, median of
 * the rounds (the machine is shared: absolute figures move with the load, the ratios less):
 * - `import('health-sandbox')` (the compiled dist/index.js) in a fresh Node process against
 *   `import('msw')` in a fresh Node process: the time of the import itself;
 * - CLI ready: spawn `node dist/cli.js --port 0 --json` to its `--json` line, against spawning a
 *   bare `node:http` server to its "listening" line.
 * Needs the build (`npm run build`). `npm run bench -- --startup` runs only these.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** Milliseconds the child reports for `await import(spec)`. */
function importTime(spec: string): Promise<number> {
  const code = `const t = performance.now(); await import(${JSON.stringify(spec)}); console.log(performance.now() - t);`;
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', code], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d));
    child.once('exit', (status) => (status === 0 ? done(Number(out.trim())) : fail(new Error(`import ${spec}: exit ${status}`))));
  });
}

const BARE = `require('node:http').createServer((q, s) => s.end('ok')).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ port: this.address().port })); });`;

/** Milliseconds from spawn to the first stdout line that starts with `{`; the child is then stopped. */
function readyTime(args: string[]): Promise<number> {
  const start = process.hrtime.bigint();
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    let ms: number | null = null;
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      if (ms === null && /^\{.*\}$/m.test(out)) {
        ms = Number(process.hrtime.bigint() - start) / 1e6;
        child.kill('SIGKILL');
      }
    });
    child.once('exit', (status) => (ms === null ? fail(new Error(`${args[0]}: exit ${status} before ready`)) : done(ms)));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function benchStartup(quick: boolean): Promise<void> {
  const index = join(root, 'dist/index.js');
  const cli = join(root, 'dist/cli.js');
  if (!existsSync(index) || !existsSync(cli)) {
    console.log('\nStart-up: dist/ is missing (npm run build first): skipped');
    return;
  }
  const rounds = quick ? 3 : 7;
  const msw: number[] = [];
  const ours: number[] = [];
  const bare: number[] = [];
  const ready: number[] = [];
  for (let r = 0; r < rounds; r++) {
    msw.push(await importTime('msw'));
    ours.push(await importTime(index));
    bare.push(await readyTime(['-e', BARE]));
    ready.push(await readyTime([cli, '--port', '0', '--json']));
  }
  const row = (name: string, base: string, b: number[], x: number[], goal: string): void =>
    console.log(
      `${name.padEnd(44)} ${base.padEnd(34)} ${`${median(b).toFixed(0)} ms`.padStart(8)} ${`${median(x).toFixed(0)} ms`.padStart(8)} ${`${(median(x) / median(b)).toFixed(2)}x`.padStart(7)}  goal ${goal}`,
    );
  console.log(`\nStart-up (median of ${rounds} interleaved rounds)`);
  console.log(`${'case'.padEnd(44)} ${'baseline'.padEnd(34)} ${'base'.padStart(8)} ${'ours'.padStart(8)} ${'ratio'.padStart(7)}`);
  row("import('health-sandbox') (dist/index.js)", "import('msw')", msw, ours, '<= 1x');
  row('CLI ready: spawn to the --json line', 'bare node:http spawn to listening', bare, ready, '<= 3x');
}

if (process.argv[1]?.endsWith('bench-startup.ts')) await benchStartup(process.argv.includes('--quick'));
