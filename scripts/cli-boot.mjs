#!/usr/bin/env node
/**
 * `dist/cli.js`, the `health-sandbox` command (copied there by scripts/build.mjs): starts the CLI,
 * which is one CommonJS file (`dist/cli-main.cjs`, the whole of src/cli.ts and what it loads),
 * compiled with the V8 code cache the build wrote beside it (`dist/cli-main.cjs.cache`), so a
 * start parses and compiles almost nothing (BENCHMARKS.md, "Start-up"). V8 refuses a cache made
 * by another V8 version or other flags, and this file ignores one older than the bundle: the
 * bundle is then compiled as usual. Where `node:vm` cannot run it (an older Node 20 without
 * `vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER`), the bundle is simply required.
 *
 * `HEALTH_SANDBOX_CODE_CACHE_OUT=<file>`: writes the code cache to that file when the process
 * exits (the build starts the CLI once with it, so the cache holds what a start compiles).
 */
import { createRequire } from 'node:module';

// One import through the ES module loader; the other built-ins through `require`, which costs
// less per module at start (BENCHMARKS.md, "Start-up").
const require = createRequire(import.meta.url);
const { readFileSync, statSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { fileURLToPath } = require('node:url');
const vm = require('node:vm');

const here = dirname(fileURLToPath(import.meta.url));
const file = join(here, 'cli-main.cjs');
const cacheFile = `${file}.cache`;
const loader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;

/** The cache when it is at least as new as the bundle (an edited bundle never meets an old cache). */
function cache() {
  try {
    return statSync(cacheFile).mtimeMs >= statSync(file).mtimeMs ? readFileSync(cacheFile) : undefined;
  } catch {
    return undefined;
  }
}

function compile() {
  if (loader === undefined) return undefined;
  try {
    // ASCII only (scripts/build.mjs escapes the rest): read as one-byte text, no UTF-8 decoding.
    const source = readFileSync(file, 'latin1');
    const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
      filename: file,
      cachedData: cache(),
      importModuleDynamically: loader,
    });
    const out = process.env.HEALTH_SANDBOX_CODE_CACHE_OUT;
    if (out) process.once('exit', () => writeFileSync(out, script.createCachedData()));
    return script.runInThisContext();
  } catch {
    return undefined;
  }
}

const main = compile();
if (main === undefined) require(file);
else {
  const module = { exports: {} };
  main.call(module.exports, module.exports, require, module, file, here);
}
