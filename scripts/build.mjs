#!/usr/bin/env node
/**
 * The package's JavaScript (`npm run build`, after `tsc -b tsconfig.build.json` has written the
 * declarations): one esbuild bundle of the entries package.json's `exports` and `bin` name, split
 * into shared chunks (dist/chunk-*.js), ES modules for Node 20. zod, @noble/hashes and yaml are
 * bundled in; the peers (msw, express) and the packages loaded on first use (pdf-lib,
 * swagger-ui-dist) stay external imports. Resolving a few files instead of ~400 halves `import('health-sandbox')`
 * (BENCHMARKS.md, "Start-up"). Dynamic imports in src stay dynamic (their own chunks). The CLI's
 * shebang is kept. The JavaScript of an earlier build (tsc's per-file output, old chunks) is
 * removed first, so the package holds only this build's files; the declarations stay.
 *
 * The CLI is built apart (BENCHMARKS.md, "Start-up"): `dist/cli-main.cjs`, one CommonJS file
 * holding src/cli.ts and everything it loads (its own dynamic imports inlined), started by
 * `dist/cli.js` (scripts/cli-boot.mjs) through `node:vm` with a V8 code cache. The build writes
 * that cache by starting the CLI once (127.0.0.1, port 0, the default world) and stopping it once
 * it printed its `--json` line: the cache then holds every function a start compiles.
 *
 * A build whose inputs have not changed since the last one is skipped (`npm test` and `npm start`
 * build first; the bundle and the CLI's start cost seconds): `dist/bundle.tsbuildinfo` holds a
 * hash of what the JavaScript is made of (src/, this script, cli-boot.mjs, package.json, the
 * lockfile, the bundled packages' versions, Node's version for the code cache), written last, so
 * an interrupted build is never taken for a fresh one; like tsc's build info it stays out of the
 * package (`!dist/*.tsbuildinfo`). A skip refreshes `dist/cli.js`'s time, which tells the tests
 * the build matches src (test/support/cli-command.ts). `--force` builds anyway.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, chmodSync, existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { bundleInspector } from './inspector-bundle.mjs';
import { inputsHash } from './inputs-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ENTRIES = ['index', 'msw', 'express', 'node', 'testing'];
const EXTERNAL = ['msw', 'express', 'pdf-lib', 'swagger-ui-dist'];

function removeJs(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    const path = join(dir, e.name);
    if (e.isDirectory()) removeJs(path);
    else if (/\.(js|js\.map|cjs|cjs\.cache)$/.test(e.name)) rmSync(path);
  }
}

/**
 * yaml (the scenario parser's, needed synchronously by `createSandbox({ scenario: text })`) is
 * bundled as its ES-module build: its Node build is ~80 CommonJS files whose loading cost more
 * than the rest of the import (BENCHMARKS.md, "Start-up").
 */
const yamlAsModules = {
  name: 'yaml-as-modules',
  setup(b) {
    const require = createRequire(import.meta.url);
    const esm = join(dirname(require.resolve('yaml/package.json')), 'browser/dist/index.js');
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: esm }));
  },
};

/**
 * zod's `z.locales` namespace holds every language's messages (~360 KB, a sixth of what the CLI
 * would parse at start); the sandbox answers in English only and never switches locale, so the
 * bundle's `z.locales` holds `en` alone (zod configures `en` itself).
 */
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core)[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '../locales/index.js'), namespace: 'zod-locales', pluginData: args.importer }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.pluginData), '../locales/en.js'))};`,
      loader: 'js',
      resolveDir: dirname(args.pluginData),
    }));
  },
};

/** Every input of the JavaScript build, hashed: paths and contents, in a fixed order. */
function buildInputsHash() {
  return inputsHash({
    root,
    dirs: ['src'],
    files: [
      'scripts/build.mjs',
      'scripts/cli-boot.mjs',
      'scripts/inspector-bundle.mjs',
      'scripts/inputs-hash.mjs',
      'package.json',
      'package-lock.json',
    ],
    extra: [
      ...['zod', 'yaml', '@noble/hashes', 'esbuild'].map(
        (name) => `${name}@${JSON.parse(readFileSync(join(root, 'node_modules', name, 'package.json'), 'utf8')).version}`,
      ),
      `${process.version} ${process.arch} ${process.platform}`,
    ],
  });
}

const STAMP = join(dist, 'bundle.tsbuildinfo');
const OUTPUTS = [...ENTRIES.map((name) => `${name}.js`), 'cli.js', 'cli-main.cjs', 'cli-main.cjs.cache'];
const stamp = buildInputsHash();
const fresh =
  !process.argv.includes('--force') &&
  existsSync(STAMP) &&
  readFileSync(STAMP, 'utf8').trim() === stamp &&
  OUTPUTS.every((name) => existsSync(join(dist, name)));
if (fresh) {
  const now = new Date();
  utimesSync(join(dist, 'cli.js'), now, now);
  process.exit(0);
}

rmSync(STAMP, { force: true });
removeJs(dist);
/** The inspector's browser code (src/inspector/), carried inline by the page `/_sandbox/ui` (src/handlers/sandbox/ui-app.ts). */
const inspector = await bundleInspector(root);
const shared = {
  absWorkingDir: root,
  define: { __HEALTH_SANDBOX_INSPECTOR__: JSON.stringify(inspector) },
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  plugins: [yamlAsModules, zodEnglishOnly],
  logLevel: 'warning',
};
await build({
  ...shared,
  entryPoints: ENTRIES.map((name) => `src/${name}.ts`),
  splitting: true,
  format: 'esm',
  outdir: 'dist',
  chunkNames: 'chunk-[hash]',
});

/**
 * Rewrites the few non-ASCII characters esbuild leaves (in comments and regular expression
 * literals, e.g. `[À-ÿ]`) as `\u00c0`-style escapes, which mean the same there and in strings. One such
 * character makes Node decode the whole file as UTF-8 into a two-byte string: 2 MB read 4 to 5
 * times slower (BENCHMARKS.md, "Start-up"). The CLI's bundle, ASCII only, is read as latin1.
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  writeFileSync(
    file,
    text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}

/** The CLI's one CommonJS file; `import.meta.url` (docs-assets.ts resolves swagger-ui-dist from it) is the file's own URL. */
const cliMain = join(dist, 'cli-main.cjs');
await build({
  ...shared,
  entryPoints: ['src/cli.ts'],
  format: 'cjs',
  outfile: cliMain,
  define: { ...shared.define, 'import.meta.url': '__cliFileUrl' },
  banner: { js: 'const __cliFileUrl = require("node:url").pathToFileURL(__filename).href;' },
});
// The bundle runs inside a function (cli-boot.mjs): no shebang line.
writeFileSync(cliMain, readFileSync(cliMain, 'utf8').replace(/^#![^\n]*\n/, ''));
for (const name of readdirSync(dist)) if (/\.(c?js)$/.test(name)) asciiOnly(join(dist, name));
copyFileSync(join(root, 'scripts/cli-boot.mjs'), join(dist, 'cli.js'));
chmodSync(join(dist, 'cli.js'), 0o755);
// Without a cache (the run failed) the CLI still starts, compiling its bundle as it loads.
await writeCodeCache().catch((error) => console.warn(`build: no code cache for the CLI (${error.message})`));
writeFileSync(STAMP, `${stamp}\n`);

/** Starts the CLI once with `HEALTH_SANDBOX_CODE_CACHE_OUT`, stops it after its `--json` line; the cache is written as it exits. */
function writeCodeCache() {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [join(dist, 'cli.js'), '--port', '0', '--host', '127.0.0.1', '--json', '--quiet'], {
      cwd: root,
      env: { ...process.env, HEALTH_SANDBOX_CODE_CACHE_OUT: `${cliMain}.cache`, HEALTH_SANDBOX_PORT: '' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (/^\{.*\}$/m.test(out)) child.kill('SIGINT');
    });
    child.once('error', fail);
    child.once('exit', (code, signal) =>
      code === 0 || code === 130 ? done() : fail(new Error(`the CLI's code-cache run ended with ${code ?? signal}`)),
    );
  });
}
