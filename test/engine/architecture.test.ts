/**
 * The shape of the code (design.md sections 7 and 8, rules 8 to 10), checked on the sources:
 * no import cycles; no handler imports another handler file; files (src, tests, scripts,
 * examples) stay small (the core's
 * freedom from Node built-ins is `browser-safe.test.ts`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const src = join(root, 'src');
const MAX_LINES = 400;
/**
 * Files the formatter (biome, 140 columns) wrapped past the cap; each is to be split, and this list
 * only shrinks.
 */
const OVER_CAP_AFTER_FORMAT = new Set([
  'src/fixtures/wearables/timeseries-rows.ts',
  'src/state/labs/order-lifecycle.ts',
  'src/state/management/query-schema.ts',
  'test/engine/isolation.test.ts',
  'test/management/management-teams.test.ts',
  'test/support/hostile-requests.ts',
]);

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

const files = walk(src);
const text = new Map(files.map((f) => [f, readFileSync(f, 'utf8')]));

/** Relative imports of a file, resolved to source paths (type-only imports included: they still tie modules). */
function importsOf(file: string): string[] {
  const out: string[] = [];
  for (const m of (text.get(file) ?? '').matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)) {
    out.push(resolve(dirname(file), (m[1] as string).replace(/\.js$/, '.ts')));
  }
  return out;
}

const rel = (f: string) => relative(root, f);

/**
 * Route files that still import fixture modules (the shape of an area: a handler parses, calls
 * its domain and presents; the fixture models are the domain's). Only shrinks: a file that no
 * longer imports fixtures must leave the list.
 */
const HANDLERS_WITH_FIXTURES = new Set<string>([]);

/**
 * Unchecked replies (`json(...)`) left in route files: the escape hatch of areas whose views are
 * not typed from the wire types yet. A number that only goes down (`reply(status, body)` is the
 * checked form, test/engine/route-types.test.ts).
 */
const UNCHECKED_REPLIES = 11;

describe('architecture', () => {
  it('has no import cycles', () => {
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, stack: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...stack.slice(stack.indexOf(f)), f].map(rel).join(' -> '));
        return;
      }
      state.set(f, 'open');
      for (const g of importsOf(f)) if (text.has(g)) visit(g, [...stack, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(cycles).toEqual([]);
  });

  // A handler file defines routes; an area's shared request schemas and page renderers (files
  // without routes) may be imported by its handlers, and area.ts gathers the route lists.
  const definesRoutes = (f: string) => /\bdefineRoute\(/.test(text.get(f) ?? '');
  it('no handler imports another handler file (area wiring in area.ts excepted)', () => {
    const bad: string[] = [];
    for (const f of files) {
      if (!rel(f).startsWith('src/handlers/') || f.endsWith('/area.ts')) continue;
      for (const g of importsOf(f)) if (rel(g).startsWith('src/handlers/') && definesRoutes(g)) bad.push(`${rel(f)} -> ${rel(g)}`);
    }
    expect(bad).toEqual([]);
  });

  // ENGINE.md rule 3: a handler parses, calls one domain function and presents its result; it
  // does not check state. So a route file neither takes a store out of the world (a store slot:
  // `export const xOf = partitionSlot(...)` / `worldSlot(...)` of src/state) nor reads a store's
  // keyed Map (`.byId`, `.byX`); the lookups and their 404/409 live in the area's domain functions.
  it('no handler imports a store slot or reads a keyed Map (state lookups live in domain functions)', () => {
    const slots = new Map<string, Set<string>>();
    for (const f of files) {
      if (!rel(f).startsWith('src/state/')) continue;
      const names = [...(text.get(f) ?? '').matchAll(/export const (\w+) = (?:partitionSlot|worldSlot)\(/g)].map((m) => m[1] as string);
      if (names.length) slots.set(f, new Set(names));
    }
    expect(slots.size).toBeGreaterThan(5);
    const bad: string[] = [];
    for (const f of files) {
      if (!rel(f).startsWith('src/handlers/') || f.endsWith('/area.ts')) continue;
      const source = text.get(f) ?? '';
      for (const m of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'(\.{1,2}\/[^']+)'/g)) {
        const names = slots.get(resolve(dirname(f), (m[2] as string).replace(/\.js$/, '.ts')));
        if (!names) continue;
        for (const n of (m[1] as string).split(',').map(
          (x) =>
            x
              .trim()
              .replace(/^type\s+/, '')
              .split(/\s+as\s+/)[0] as string,
        ))
          if (names.has(n)) bad.push(`${rel(f)} imports the store slot ${n}`);
      }
      for (const m of source.matchAll(/\.(by[A-Z]\w*)\b/g)) bad.push(`${rel(f)} reads .${m[1] as string}`);
    }
    expect(bad).toEqual([]);
  });

  // A store other modules can reach (its slot is exported) keeps its keyed Maps private and
  // offers keyed accessors (`get(id)`, `has(id)`, iteration helpers), as OrderStore does; stores
  // behind a module-private slot are reachable only by their own module's domain functions.
  it('stores with an exported slot keep their keyed Maps (by*) private', () => {
    const bad: string[] = [];
    for (const f of files) {
      const source = text.get(f) ?? '';
      if (!rel(f).startsWith('src/state/') || !/export const \w+ = (?:partitionSlot|worldSlot)\(/.test(source)) continue;
      for (const m of source.matchAll(/^\s+(?:public\s+)?readonly (by[A-Z]\w*)\s*(?::[^=]+)?= new Map/gm))
        bad.push(`${rel(f)}: ${m[1] as string}`);
    }
    expect(bad).toEqual([]);
  });

  // Domain functions raise their area's typed errors (a DomainError subclass from the area's
  // errors.ts, one kind->status table in src/state/domain-error.ts); only the catalogues build
  // HTTP answers. `ApiError` itself stays importable (instanceof checks, idempotent replays).
  it('domain code builds no HTTP error outside the error catalogues', () => {
    const HTTP_HELPERS = new Set([
      'apiError',
      'badRequest',
      'unauthorized',
      'forbidden',
      'notFound',
      'conflict',
      'validationError',
      'valueError',
      'invalidRequest',
    ]);
    const bad: string[] = [];
    for (const f of files) {
      if (!rel(f).startsWith('src/state/') || f.endsWith('/errors.ts')) continue;
      for (const m of (text.get(f) ?? '').matchAll(/import\s*\{([^}]*)\}\s*from\s*'[./]*engine\/errors\.js'/g)) {
        for (const n of (m[1] as string).split(',').map((x) => x.trim())) if (HTTP_HELPERS.has(n)) bad.push(`${rel(f)} imports ${n}`);
      }
    }
    expect(bad).toEqual([]);
  });

  // The shape of an area (docs/ENGINE.md): domain functions take the domain context
  // (`Domain`/`OrgDomain`, src/state/domain-context.ts), never the request context.
  it('the request context (Ctx, SimRequest) never enters src/state', () => {
    const bad: string[] = [];
    for (const f of files) {
      if (!rel(f).startsWith('src/state/')) continue;
      const source = text.get(f) ?? '';
      for (const g of importsOf(f)) if (/src\/engine\/(route|dispatch)\.ts$/.test(rel(g))) bad.push(`${rel(f)} imports ${rel(g)}`);
      for (const m of source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from/g))
        for (const n of (m[1] as string).split(',').map((x) => x.trim().replace(/^type\s+/, '')))
          if (n === 'Ctx' || n === 'SimRequest') bad.push(`${rel(f)} imports ${n}`);
    }
    expect(bad).toEqual([]);
  });

  it('handlers import no fixtures (area wiring in area.ts excepted; the known list only shrinks)', () => {
    const found = new Set<string>();
    for (const f of files) {
      if (!rel(f).startsWith('src/handlers/') || f.endsWith('/area.ts')) continue;
      if (importsOf(f).some((g) => rel(g).startsWith('src/fixtures/'))) found.add(rel(f));
    }
    expect([...found].filter((f) => !HANDLERS_WITH_FIXTURES.has(f))).toEqual([]);
    expect([...HANDLERS_WITH_FIXTURES].filter((f) => !found.has(f))).toEqual([]);
  });

  // One error-catalogue layout: `src/state/<area>/errors.ts` exports its texts as `<AREA>_ERRORS`
  // (more tables as `<AREA>_*`/UPPER_CASE constants) and its typed errors as one `<area>Error`
  // object of factories; no loose exported functions.
  it('every area keeps its errors in errors.ts with the same layout', () => {
    const bad: string[] = [];
    const areas = readdirSync(join(src, 'state'), { withFileTypes: true }).filter((e) => e.isDirectory());
    for (const { name } of areas) {
      const file = join(src, 'state', name, 'errors.ts');
      const source = text.get(file);
      if (source === undefined) {
        bad.push(`src/state/${name}: no errors.ts`);
        continue;
      }
      const upper = name.toUpperCase();
      const values = [...source.matchAll(/^export (?:const|function|class|let) (\w+)/gm)].map((m) => m[1] as string);
      if (!values.includes(`${upper}_ERRORS`)) bad.push(`${rel(file)}: no ${upper}_ERRORS`);
      if (!values.includes(`${name}Error`)) bad.push(`${rel(file)}: no ${name}Error`);
      for (const v of values) if (v !== `${name}Error` && !/^[A-Z][A-Z0-9_]*$/.test(v)) bad.push(`${rel(file)}: exports ${v}`);
    }
    expect(bad).toEqual([]);
  });

  it(`route files answer with at most ${UNCHECKED_REPLIES} unchecked json() replies (a number that only goes down)`, () => {
    let n = 0;
    for (const f of files) if (rel(f).startsWith('src/handlers/')) n += [...(text.get(f) ?? '').matchAll(/\bjson\(/g)].length;
    expect(n).toBeLessThanOrEqual(UNCHECKED_REPLIES);
  });

  it(`keeps source, test and script files under about ${MAX_LINES} lines`, () => {
    const all = [
      ...files,
      ...['test', 'scripts', 'examples'].flatMap((d) => walk(join(root, d)).filter((f) => !f.includes('node_modules'))),
    ];
    const big = all
      .map((f) => [rel(f), (text.get(f) ?? readFileSync(f, 'utf8')).split('\n').length] as const)
      .filter(([f, n]) => n > MAX_LINES * 1.1 && !OVER_CAP_AFTER_FORMAT.has(f));
    expect(big).toEqual([]);
  });
});
