/**
 * Bundles a browser entry that imports the package's core (`src/index.ts`) and msw entry
 * (`src/msw.ts`) with esbuild, as a front-end project's bundler would. Used by the browser test
 * and by `npm run bench` (gzip size). Node built-ins reached from the bundle are recorded in
 * `nodeBuiltins` (the core must reach none) and replaced by a module that throws when used.
 *
 * Bundles are kept in test/.artifacts/bundles/ (ignored by git), keyed by the page's source and
 * options, with the hash of every file esbuild read: a page whose inputs have not changed since
 * the last run is not bundled again (0.5 to 1 s of esbuild's CPU per page, six pages a run).
 */
import { build, type Metafile, type Plugin, version } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface BrowserBundle {
  /** The entry chunk (what the page loads first). */
  code: string;
  /** Lazily loaded chunks by file name (code behind `import()`). */
  chunks: Map<string, string>;
  /** Node built-ins some module of the bundle imports. */
  nodeBuiltins: string[];
  /** Source modules (relative to the repository or node_modules) in the entry chunk. */
  entryInputs: string[];
  gzipBytes: number;
  bytes: number;
}

/**
 * The code of a page: `source` may import from 'health-sandbox' and 'health-sandbox/msw'.
 * `modules` replaces imports by exact specifier with the given source (a dev server's alias).
 */
export async function bundleBrowser(
  source: string,
  options: { minify?: boolean; modules?: Record<string, string> } = {},
): Promise<BrowserBundle> {
  const key = createHash('sha256')
    .update(JSON.stringify([version, lockHash(), source, options.minify ?? true, options.modules ?? {}]))
    .digest('hex')
    .slice(0, 24);
  const kept = keptBundle(key);
  if (kept) return kept;
  const made = await buildBundle(source, options);
  keepBundle(key, made);
  return made.bundle;
}

const CACHE = `${root}test/.artifacts/bundles`;

let lock: string | undefined;
/** The dependencies' versions (a package's `exports` may change what an import resolves to). */
function lockHash(): string {
  if (lock === undefined) {
    try {
      lock = createHash('sha1')
        .update(readFileSync(`${root}package-lock.json`))
        .digest('hex');
    } catch {
      lock = '';
    }
  }
  return lock;
}

interface Kept {
  /** Files esbuild read (relative to the repository) and the hash of each. */
  inputs: Record<string, string>;
  bundle: Omit<BrowserBundle, 'chunks'> & { chunks: Array<[string, string]> };
}

const fileHash = (path: string): string =>
  createHash('sha1')
    .update(readFileSync(`${root}${path}`))
    .digest('hex');

function keptBundle(key: string): BrowserBundle | undefined {
  try {
    const kept = JSON.parse(readFileSync(`${CACHE}/${key}.json`, 'utf8')) as Kept;
    for (const [path, hash] of Object.entries(kept.inputs)) if (fileHash(path) !== hash) return undefined;
    return { ...kept.bundle, chunks: new Map(kept.bundle.chunks) };
  } catch {
    return undefined; // none kept, or an input gone
  }
}

function keepBundle(key: string, made: { bundle: BrowserBundle; files: string[] }): void {
  const inputs: Record<string, string> = {};
  for (const path of made.files) inputs[path] = fileHash(path);
  const kept: Kept = { inputs, bundle: { ...made.bundle, chunks: [...made.bundle.chunks] } };
  mkdirSync(CACHE, { recursive: true });
  // Written whole, then renamed: a second copy of the suite never reads half a file.
  const building = `${CACHE}/${key}.${process.pid}.tmp`;
  writeFileSync(building, JSON.stringify(kept));
  renameSync(building, `${CACHE}/${key}.json`);
}

async function buildBundle(
  source: string,
  options: { minify?: boolean; modules?: Record<string, string> },
): Promise<{ bundle: BrowserBundle; files: string[] }> {
  const builtins = new Set<string>();
  const modules = options.modules ?? {};
  const aliases: Plugin = {
    name: 'health-sandbox-aliases',
    setup(b) {
      const names = Object.keys(modules);
      if (names.length > 0) {
        const exact = new RegExp(`^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})$`);
        b.onResolve({ filter: exact }, (args) => ({ path: args.path, namespace: 'page-alias' }));
        b.onLoad({ filter: /.*/, namespace: 'page-alias' }, (args) => ({ contents: modules[args.path], loader: 'ts', resolveDir: root }));
      }
      b.onResolve({ filter: /^health-sandbox(\/msw)?$/ }, (args) => ({
        path: `${root}src/${args.path.endsWith('/msw') ? 'msw' : 'index'}.ts`,
      }));
      b.onResolve({ filter: /^node:/ }, (args) => {
        builtins.add(args.path);
        return { path: args.path, namespace: 'node-builtin' };
      });
      b.onLoad({ filter: /.*/, namespace: 'node-builtin' }, (args) => ({
        contents:
          `const fail = () => { throw new Error(${JSON.stringify(`${args.path} is not available in a browser`)}); };\n` +
          'export default new Proxy({}, { get: () => fail });\nexport const appendFile = fail, readFile = fail, writeFile = fail;',
        loader: 'js',
      }));
    },
  };
  const result = await build({
    stdin: { contents: source, resolveDir: root, loader: 'ts', sourcefile: 'page.ts' },
    bundle: true,
    platform: 'browser',
    format: 'esm',
    splitting: true,
    absWorkingDir: root,
    outdir: `${root}.browser-out`,
    write: false,
    minify: options.minify ?? true,
    metafile: true,
    logLevel: 'silent',
    plugins: [aliases],
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  // The files read (paths relative to the repository; the page's source, `page.ts`, its aliases and the
  // built-in stand-ins are in the key): any of them changed, the page is bundled again.
  const files = Object.keys(result.metafile.inputs).filter((path) => !path.includes(':') && path !== 'page.ts' && path !== '<stdin>');
  const chunks = new Map<string, string>();
  let code = '';
  let entryInputs: string[] = [];
  const meta: Metafile = result.metafile;
  for (const file of result.outputFiles) {
    const name = file.path.slice(file.path.lastIndexOf('/') + 1);
    const out = Object.entries(meta.outputs).find(([p]) => file.path.endsWith(p));
    if (name === 'stdin.js' && out) {
      code = file.text;
      entryInputs = Object.keys(out[1].inputs);
    } else chunks.set(name, file.text);
  }
  const bundle = {
    code,
    chunks,
    nodeBuiltins: [...builtins].sort(),
    entryInputs,
    bytes: Buffer.byteLength(code),
    gzipBytes: gzipSync(code).byteLength,
  };
  return { bundle, files };
}

/** The page the bench measures: what a browser test suite imports. */
export const MINIMAL_PAGE = `
import { createSandbox } from 'health-sandbox';
import { createMswHandlers } from 'health-sandbox/msw';
export const handlers = (seed: number) => createMswHandlers(createSandbox({ seed, clock: 'manual' }));
`;
