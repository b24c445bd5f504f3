/**
 * The shape of the code (design.md sections 7 and 8, rules 8 to 13), checked on the sources: each
 * rule is a function over (path, source text) in `test/support/architecture-rules.ts`, run here over
 * the repository; `architecture-rules.test.ts` proves each one reports a file that breaks it. The
 * core's freedom from Node built-ins is `browser-safe.test.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  adapterBypassesDoor,
  areasWithoutCatalogue,
  check,
  domainBuildsHttpErrors,
  errorCatalogueLayout,
  handlerImportsFixtures,
  handlerImportsHandler,
  handlerReadsStore,
  importCycles,
  longParameterLists,
  MAX_POSITIONAL,
  overLineCap,
  positionalWorldPartition,
  requestContextInState,
  storeMapsPublic,
  testFolderByArea,
  uncheckedReplies,
  worldKeyedMaps,
} from '../support/architecture-rules.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MAX_LINES = 400;
/**
 * Files the formatter (biome, 140 columns) wrapped past the cap; each is to be split, and this list
 * only shrinks.
 */
const OVER_CAP_AFTER_FORMAT = new Set([
  'src/fixtures/wearables/timeseries-rows.ts',
  'src/state/labs/order-lifecycle.ts',
  'test/engine/isolation.test.ts',
  'test/management/management-teams.test.ts',
  'test/support/hostile-requests.ts',
]);

/** The `.ts` files under `dir` (relative to the root), by path, with their text. */
function sources(dir: string): Map<string, string> {
  const walk = (d: string): string[] =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() && e.name !== 'node_modules' ? walk(join(d, e.name)) : e.name.endsWith('.ts') ? [join(d, e.name)] : [],
    );
  return new Map(walk(join(root, dir)).map((f) => [relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')]));
}

const src = sources('src');

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
const UNCHECKED_REPLIES = 2;

describe('architecture', () => {
  it('has no import cycles', () => {
    expect(importCycles(src)).toEqual([]);
  });

  it('no handler imports another handler file (area wiring in area.ts excepted)', () => {
    expect(check(handlerImportsHandler, src)).toEqual([]);
  });

  // A handler parses, calls one domain function and presents its result; it does not check state.
  it('no handler imports a store slot or reads a keyed Map (state lookups live in domain functions)', () => {
    expect([...src.values()].filter((s) => /export const \w+ = (?:partitionSlot|worldSlot)\(/.test(s)).length).toBeGreaterThan(5);
    expect(check(handlerReadsStore, src)).toEqual([]);
  });

  it('stores with an exported slot keep their keyed Maps (by*) private', () => {
    expect(check(storeMapsPublic, src)).toEqual([]);
  });

  // `ApiError` itself stays importable (instanceof checks, idempotent replays).
  it('domain code builds no HTTP error outside the error catalogues', () => {
    expect(check(domainBuildsHttpErrors, src)).toEqual([]);
  });

  // Domain ({ world, partition }) is the one way into a team environment's state; handlers pass ctx.
  it('no state function takes (world, partition) positionally, an OrderEnv or a UsersScope; no handler calls orderEnv(', () => {
    expect(check(positionalWorldPartition, src)).toEqual([]);
  });

  it('the request context (Ctx, SimRequest) never enters src/state', () => {
    expect(check(requestContextInState, src)).toEqual([]);
  });

  it('handlers import no fixtures, area.ts included (seeds come from src/state; the known list only shrinks)', () => {
    const found = new Set(check(handlerImportsFixtures, src));
    expect([...found].filter((f) => !HANDLERS_WITH_FIXTURES.has(f))).toEqual([]);
    expect([...HANDLERS_WITH_FIXTURES].filter((f) => !found.has(f))).toEqual([]);
  });

  it('every area keeps its errors in errors.ts with the same layout', () => {
    expect([...areasWithoutCatalogue(src), ...check(errorCatalogueLayout, src)]).toEqual([]);
  });

  it(`route files answer with at most ${UNCHECKED_REPLIES} unchecked json() replies (a number that only goes down)`, () => {
    expect(check(uncheckedReplies, src).length).toBeLessThanOrEqual(UNCHECKED_REPLIES);
  });

  // More: an options object (a named interface, destructured in the signature).
  it(`no function or method of src takes more than ${MAX_POSITIONAL} positional parameters`, () => {
    expect(check(longParameterLists, src)).toEqual([]);
  });

  it('test folders are named after an area or a part of the engine, not after a piece of work', () => {
    expect(check(testFolderByArea, new Map([...src, ...sources('test')]))).toEqual([]);
  });

  it('no module but engine/world.ts keeps a map keyed by worlds (worldSlot is the one way)', () => {
    expect(check(worldKeyedMaps, src)).toEqual([]);
  });

  it('every adapter goes through the front door once and calls no guard or canonical-path check itself', () => {
    expect(check(adapterBypassesDoor, src)).toEqual([]);
    expect([...src].filter(([p, s]) => p.startsWith('src/adapters/') && /\bfrontDoor\(/.test(s)).map(([p]) => p)).toEqual([
      'src/adapters/msw.ts',
      'src/adapters/node-common.ts',
    ]);
  });

  it(`keeps source, test and script files under about ${MAX_LINES} lines`, () => {
    const all = new Map([...src, ...sources('test'), ...sources('scripts'), ...sources('examples')]);
    expect(check(overLineCap(MAX_LINES, OVER_CAP_AFTER_FORMAT), all)).toEqual([]);
  });
});
