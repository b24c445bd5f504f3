/**
 * The built CLI's start (scripts/cli-boot.mjs, scripts/build.mjs): `dist/cli.js` runs the one
 * CommonJS bundle with the V8 code cache the build wrote, and a cache V8 refuses (another Node, a
 * damaged file) only costs the compile: the CLI starts the same. Needs a fresh build (as the
 * other CLI tests use it: test/support/cli-command.ts); skipped without one.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/cli-command.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const built = cliArgs([])[0] === join(root, 'dist/cli.js');
const dirs: string[] = [];

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Starts `cli` with `--json` on a free port; resolves its start line, then stops it. */
function startLine(cli: string): Promise<{ url: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [cli, '--port', '0', '--json'], {
      env: { ...process.env, HEALTH_SANDBOX_PORT: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d));
    child.stdout.on('data', (d: Buffer) => {
      out += d;
      const line = /^\{.*\}$/m.exec(out);
      if (line) {
        child.kill('SIGKILL');
        done(JSON.parse(line[0]) as { url: string });
      }
    });
    child.once('exit', (code) => fail(new Error(`the CLI exited (${code}) before its start line: ${err}`)));
  });
}

describe.skipIf(!built)('dist/cli.js', () => {
  it('compiles its bundle from the code cache the build wrote (V8 accepts it)', () => {
    // In a plain node process, as the CLI runs: V8 keys a code cache on its flags, and the test
    // workers run with their own (vitest.config.ts `execArgv`).
    const check = `
      const { readFileSync } = require('node:fs');
      const vm = require('node:vm');
      const file = ${JSON.stringify(join(root, 'dist/cli-main.cjs'))};
      const script = new vm.Script('(function (exports, require, module, __filename, __dirname) {' + readFileSync(file, 'utf8') + '\\n})', {
        filename: file,
        cachedData: readFileSync(file + '.cache'),
        importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      });
      process.stdout.write(JSON.stringify({ rejected: script.cachedDataRejected }));`;
    const out = spawnSync(process.execPath, ['-e', check], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(out.status, out.stderr).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ rejected: false });
  });

  it('starts the same when V8 refuses the cache (a damaged or foreign one)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-boot-'));
    dirs.push(dir);
    copyFileSync(join(root, 'dist/cli.js'), join(dir, 'cli.js'));
    copyFileSync(join(root, 'dist/cli-main.cjs'), join(dir, 'cli-main.cjs'));
    writeFileSync(join(dir, 'cli-main.cjs.cache'), 'not a code cache');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
    const line = await startLine(join(dir, 'cli.js'));
    expect(line.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  }, 60_000);
});
