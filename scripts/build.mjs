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
 */
import { readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ENTRIES = ['index', 'msw', 'express', 'node', 'testing', 'cli'];
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
    else if (e.name.endsWith('.js') || e.name.endsWith('.js.map')) rmSync(path);
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

removeJs(dist);
await build({
  absWorkingDir: root,
  entryPoints: ENTRIES.map((name) => `src/${name}.ts`),
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outdir: 'dist',
  chunkNames: 'chunk-[hash]',
  external: EXTERNAL.flatMap((name) => [name, `${name}/*`]),
  plugins: [yamlAsModules, zodEnglishOnly],
  logLevel: 'warning',
});
