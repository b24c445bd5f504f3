#!/usr/bin/env node
/**
 * `npm run build:binary`: `dist-bin/health-sandbox`, one executable file that runs the CLI with no
 * Node installed and no node_modules (docs/other-languages.md). It is a Node single-executable
 * application (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html):
 *
 * 1. esbuild bundles src/cli.ts and everything it loads into one CommonJS file
 *    (`dist-bin/.build/sea-main.cjs`; a SEA's `require` loads only Node's built-in modules, and
 *    the CLI needs nothing else at run time: the OpenAPI documents and the inspector are code).
 *    The one file the CLI reads from a package, the `/docs` page's Swagger UI (swagger-ui-dist, an
 *    optional peer), is embedded instead: its four files become SEA assets, read with
 *    `node:sea`'s `getAsset` (src/adapters/docs-assets.ts is swapped for that reader here).
 * 2. `node --experimental-sea-config` writes the blob (with V8's code cache of the bundle).
 * 3. A copy of the running `node` gets the blob injected with postject (DECISIONS.md, 2026-11-29).
 *
 * The result is Linux x64 when run on Linux x64: a SEA is the Node binary it was made from. For
 * another platform, run this script there (docs/other-languages.md, "Other platforms").
 * `--node <path>` injects into another Node 20+ binary of the same platform instead of the running
 * one (no code cache then: V8's cache is tied to the Node that wrote it).
 *
 * Skipped when nothing it is made of changed since the last build (`dist-bin/.build/stamp`, written
 * last: src/, this script, package.json, the lockfile, the Node used); `--force` builds anyway.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { inputsHash } from './inputs-hash.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist-bin');
const work = join(out, '.build');
const binary = join(out, process.platform === 'win32' ? 'health-sandbox.exe' : 'health-sandbox');
const require = createRequire(import.meta.url);
const nodeFlag = process.argv.indexOf('--node');
const nodeBinary = nodeFlag > 0 ? resolve(process.argv[nodeFlag + 1] ?? '') : process.execPath;
const sameNode = nodeBinary === process.execPath;
/** Node's fixed sentinel: postject flips the byte after it so the binary looks for its blob. */
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/** The `/docs` page's files (src/state/sandbox/docs-assets.ts serves only these). */
const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png'];

function binaryInputsHash() {
  const node = statSync(nodeBinary);
  return inputsHash({
    root,
    dirs: ['src'],
    files: ['scripts/build-binary.mjs', 'scripts/inputs-hash.mjs', 'package.json', 'package-lock.json'],
    extra: [`${nodeBinary} ${node.size} ${node.mtimeMs} ${process.version} ${process.platform} ${process.arch}`],
  });
}

const STAMP = join(work, 'stamp');
const stamp = binaryInputsHash();
if (!process.argv.includes('--force') && existsSync(binary) && existsSync(STAMP) && readFileSync(STAMP, 'utf8').trim() === stamp) {
  process.stdout.write(`${binary} is up to date (${mb(statSync(binary).size)})\n`);
  process.exit(0);
}

/** The swagger-ui-dist files to embed, or none when the optional package is not installed (the page then says so). */
function docsAssets() {
  let dir;
  try {
    dir = dirname(require.resolve('swagger-ui-dist/package.json'));
  } catch {
    console.warn('build-binary: swagger-ui-dist is not installed: the binary serves /docs without Swagger UI');
    return {};
  }
  return Object.fromEntries(DOCS_ASSETS.map((name) => [name, join(dir, name)]));
}

/** src/adapters/docs-assets.ts, for the binary: the `/docs` page's files from the SEA's assets. */
const docsFromSeaAssets = {
  name: 'docs-from-sea-assets',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]adapters[\\/]docs-assets\.ts$/ }, (args) => ({
      loader: 'ts',
      resolveDir: dirname(args.path),
      contents: `
import { getAsset } from 'node:sea';
import type { Sandbox } from '../sandbox.js';
function readDocsAsset(file: string): Promise<Uint8Array | undefined> {
  try {
    return Promise.resolve(new Uint8Array(getAsset(file)));
  } catch {
    return Promise.resolve(undefined);
  }
}
export function installDocsAssets(sandbox: Sandbox): void {
  sandbox.setAssets({ docs: readDocsAsset });
}
`,
    }));
  },
};

function mb(bytes) {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function run(command, args) {
  const r = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${r.status ?? r.signal})`);
}

rmSync(STAMP, { force: true });
mkdirSync(work, { recursive: true });
const main = join(work, 'sea-main.cjs');
await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  outfile: main,
  // A SEA's `require` loads only built-in modules: every package is bundled.
  plugins: [docsFromSeaAssets],
  // `import.meta.url` (createRequire of built-ins) is the executable's own URL.
  define: { 'import.meta.url': '__cliFileUrl' },
  banner: { js: 'const __cliFileUrl = require("node:url").pathToFileURL(process.execPath).href;' },
  logLevel: 'warning',
});
// The bundle must not load anything but Node's own modules (a SEA cannot).
const requires = [...readFileSync(main, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]);
const foreign = [...new Set(requires.filter((name) => !name.startsWith('node:') && !builtinModules.includes(name)))];
if (foreign.length > 0) throw new Error(`build-binary: the bundle requires packages a SEA cannot load: ${foreign.join(', ')}`);

const blob = join(work, 'sea-prep.blob');
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  `${JSON.stringify(
    { main, output: blob, disableExperimentalSEAWarning: true, useCodeCache: sameNode, useSnapshot: false, assets: docsAssets() },
    null,
    2,
  )}\n`,
);
run(process.execPath, ['--experimental-sea-config', config]);

rmSync(binary, { force: true });
copyFileSync(nodeBinary, binary);
chmodSync(binary, 0o755);
const { inject } = require('postject');
await inject(binary, 'NODE_SEA_BLOB', readFileSync(blob), {
  sentinelFuse: FUSE,
  ...(process.platform === 'darwin' ? { machoSegmentName: 'NODE_SEA' } : {}),
});
if (process.platform === 'darwin') run('codesign', ['--sign', '-', binary]);
writeFileSync(STAMP, `${stamp}\n`);
process.stdout.write(`${binary}: ${mb(statSync(binary).size)} (${process.platform}-${process.arch}, Node ${process.version})\n`);
