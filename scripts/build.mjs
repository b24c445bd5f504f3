#!/usr/bin/env node
/**
 * The package's JavaScript (`npm run build`, after `tsc -b tsconfig.build.json` has written the
 * declarations): one esbuild bundle of the entries package.json's `exports` and `bin` name, split
 * into shared chunks (dist/chunk-*.js), ES modules for Node 20. zod and @noble/hashes are bundled
 * in; the peers (msw, express) and the packages loaded on first use (pdf-lib, swagger-ui-dist,
 * yaml) stay external imports. Resolving a few files instead of ~400 halves `import('health-sandbox')`
 * (BENCHMARKS.md, "Start-up"). Dynamic imports in src stay dynamic (their own chunks). The CLI's
 * shebang is kept. The JavaScript of an earlier build (tsc's per-file output, old chunks) is
 * removed first, so the package holds only this build's files; the declarations stay.
 */
import { readdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const ENTRIES = ['index', 'msw', 'express', 'node', 'testing', 'cli'];
const EXTERNAL = ['msw', 'express', 'pdf-lib', 'swagger-ui-dist', 'yaml'];

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
  logLevel: 'warning',
});
