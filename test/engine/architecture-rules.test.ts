/**
 * The architecture test fails on a deliberate break of each rule: every rule of
 * `test/support/architecture-rules.ts` is fed a small synthetic tree with one file that breaks it
 * (and the same tree without the break), and must report exactly that file.
 */
import { describe, expect, it } from 'vitest';
import {
  adapterBypassesDoor,
  areasWithoutCatalogue,
  check,
  domainBuildsHttpErrors,
  errorCatalogueLayout,
  type FileRule,
  handlerImportsFixtures,
  handlerImportsHandler,
  handlerReadsStore,
  importCycles,
  longParameterLists,
  nodeInCore,
  overLineCap,
  positionalWorldPartition,
  requestContextInState,
  storeMapsPublic,
  testFolderByArea,
  uncheckedReplies,
  worldKeyedMaps,
} from '../support/architecture-rules.js';

/** A tree of synthetic files. */
const tree = (files: Record<string, string>) => new Map(Object.entries(files));

/** Files every case may lean on: a store with an exported slot, a route file, a fixture, a catalogue. */
const BASE = {
  'src/state/labs/order-store.ts': [
    "import { partitionSlot } from '../../engine/world.js';",
    'class OrderStore { private readonly byIdMap = new Map(); }',
    'export const ordersOf = partitionSlot((p) => new OrderStore());',
    'export function orderById(d, id) { return ordersOf(d).get(id); }',
  ].join('\n'),
  'src/handlers/labs/orders.ts': [
    "import { defineRoute } from '../../engine/route.js';",
    "import { orderById } from '../../state/labs/order-store.js';",
    "export const orderRoutes = [defineRoute({ id: 'orders.get', handle: (ctx, { params }) => reply(200, orderById(ctx, params.id)) })];",
  ].join('\n'),
  'src/handlers/labs/schemas.ts': 'export const OrderQuery = z.object({});',
  'src/fixtures/labs/catalogue.ts': 'export const LABS = [];',
  'src/state/labs/errors.ts': [
    "import { domainErrorOf } from '../domain-error.js';",
    "export const LABS_ERRORS = { notFound: 'Not found' } as const;",
    'export const LABS_TEXTS = {} as const;',
    "export const labsError = domainErrorOf('labs');",
  ].join('\n'),
};

/** The rule holds on BASE and reports `expected` once `path` is added with `source`. */
function breaks(rule: FileRule, path: string, source: string, expected: string[]) {
  expect(check(rule, tree(BASE))).toEqual([]);
  expect(check(rule, tree({ ...BASE, [path]: source }))).toEqual(expected);
}

describe('each architecture rule reports a file that breaks it', () => {
  it('import cycles', () => {
    expect(importCycles(tree(BASE))).toEqual([]);
    const cyclic = tree({
      ...BASE,
      'src/engine/a.ts': "import { b } from './b.js';",
      'src/engine/b.ts': "import type { A } from './a.js';",
    });
    expect(importCycles(cyclic)).toEqual(['src/engine/a.ts -> src/engine/b.ts -> src/engine/a.ts']);
  });

  it('a handler importing another handler file (one that defines routes)', () => {
    const source =
      "import { orderRoutes } from './orders.js';\nimport { OrderQuery } from './schemas.js';\nexport const more = [defineRoute({})];";
    breaks(handlerImportsHandler, 'src/handlers/labs/more.ts', source, ['src/handlers/labs/more.ts -> src/handlers/labs/orders.ts']);
    // area.ts gathers the route lists.
    breaks(handlerImportsHandler, 'src/handlers/labs/area.ts', source, []);
  });

  it('a handler importing a store slot, or reading a keyed Map', () => {
    const slot = "import { type X, ordersOf as orders } from '../../state/labs/order-store.js';\nexport const r = [];";
    breaks(handlerReadsStore, 'src/handlers/labs/peek.ts', slot, ['src/handlers/labs/peek.ts imports the store slot ordersOf']);
    breaks(handlerReadsStore, 'src/handlers/labs/peek.ts', 'const o = store.byId.get(id);', ['src/handlers/labs/peek.ts reads .byId']);
    // A store reached from the domain context counts as a slot too.
    const fromDomain = {
      ...BASE,
      'src/state/labs/kit-store.ts': 'export function kitsOf(d: Domain): KitStore { return slot(d.partition, d.world); }',
    };
    expect(check(handlerReadsStore, tree(fromDomain))).toEqual([]);
    const peek = "import { kitsOf } from '../../state/labs/kit-store.js';\nexport const r = [];";
    expect(check(handlerReadsStore, tree({ ...fromDomain, 'src/handlers/labs/peek.ts': peek }))).toEqual([
      'src/handlers/labs/peek.ts imports the store slot kitsOf',
    ]);
  });

  it('a store with an exported slot and a public keyed Map', () => {
    const source = [
      'class UserStore {',
      '  readonly byClientId: Map<string, string> = new Map();',
      '}',
      'export const usersOf = partitionSlot(() => new UserStore());',
    ].join('\n');
    breaks(storeMapsPublic, 'src/state/users/user-store.ts', source, ['src/state/users/user-store.ts: byClientId']);
    // Behind a module-private slot, only the module's own functions reach it.
    breaks(storeMapsPublic, 'src/state/users/user-store.ts', source.replace('export const', 'const'), []);
  });

  it('domain code importing an HTTP error constructor (the catalogues excepted)', () => {
    const source = "import { ApiError, notFound } from '../../engine/errors.js';";
    breaks(domainBuildsHttpErrors, 'src/state/labs/orders.ts', source, ['src/state/labs/orders.ts imports notFound']);
    breaks(domainBuildsHttpErrors, 'src/state/labs/errors.ts', source, []);
  });

  it('a state file importing Ctx, SimRequest, engine/route.ts or engine/dispatch.ts', () => {
    const path = 'src/state/labs/orders.ts';
    breaks(requestContextInState, path, "import type { Ctx } from '../../engine/route.js';", [
      `${path} imports src/engine/route.ts`,
      `${path} imports Ctx`,
    ]);
    breaks(requestContextInState, path, "import { dispatch } from '../../engine/dispatch.js';", [`${path} imports src/engine/dispatch.ts`]);
    breaks(requestContextInState, path, "import type { SimRequest } from '../../engine/http-types.js';", [`${path} imports SimRequest`]);
  });

  it('a handler importing a fixture module (area.ts too: seeds come from src/state)', () => {
    const source = "import { LABS } from '../../fixtures/labs/catalogue.js';";
    breaks(handlerImportsFixtures, 'src/handlers/labs/catalogue.ts', source, ['src/handlers/labs/catalogue.ts']);
    breaks(handlerImportsFixtures, 'src/handlers/labs/area.ts', source, ['src/handlers/labs/area.ts']);
    breaks(handlerImportsFixtures, 'src/handlers/labs/area.ts', "import { seedLabWorld } from '../../state/labs/seed.js';", []);
  });

  it('an error catalogue out of layout, and an area without one', () => {
    const path = 'src/state/labs/errors.ts';
    const loose = `${BASE[path]}\nexport function orderMissing() { return labsError.notFound('x'); }`;
    breaks(errorCatalogueLayout, path, loose, [`${path}: exports orderMissing`]);
    breaks(errorCatalogueLayout, path, "export const labsError = domainErrorOf('labs');", [`${path}: no LABS_ERRORS`]);
    breaks(errorCatalogueLayout, path, 'export const LABS_ERRORS = {};\nexport const LabsError = 1;', [
      `${path}: no labsError`,
      `${path}: exports LabsError`,
    ]);
    expect(areasWithoutCatalogue(tree(BASE))).toEqual([]);
    expect(areasWithoutCatalogue(tree({ ...BASE, 'src/state/orphans/store.ts': '' }))).toEqual(['src/state/orphans: no errors.ts']);
  });

  it('unchecked replies over the cap', () => {
    const cap = 2;
    const under = tree({ ...BASE, 'src/handlers/labs/a.ts': 'return json(a);' });
    const over = tree({ ...BASE, 'src/handlers/labs/a.ts': 'return json(a);', 'src/handlers/labs/b.ts': 'json(b); json(c);' });
    expect(check(uncheckedReplies, under).length).toBeLessThanOrEqual(cap);
    expect(check(uncheckedReplies, over).length).toBeGreaterThan(cap);
    // Only route files count.
    expect(check(uncheckedReplies, tree({ 'src/engine/http-types.ts': 'export function json(body) {}' }))).toEqual([]);
  });

  it('a file over the line cap (but for the known ones)', () => {
    const long = 'x;\n'.repeat(50);
    breaks(overLineCap(40), 'test/labs/long.test.ts', long, ['test/labs/long.test.ts: 51 lines']);
    breaks(overLineCap(40, new Set(['test/labs/long.test.ts'])), 'test/labs/long.test.ts', long, []);
    breaks(overLineCap(50), 'test/labs/long.test.ts', long, []);
  });

  it('a test folder named after a piece of work, not an area or a part of the engine', () => {
    breaks(testFolderByArea, 'test/newcomer/stop.test.ts', 'it()', [
      "test/newcomer/stop.test.ts: test/newcomer is neither an area nor one of the engine's parts",
    ]);
    breaks(testFolderByArea, 'test/labs/stop.test.ts', 'it()', []);
    breaks(testFolderByArea, 'test/journal/stop.test.ts', 'it()', []);
  });

  it('a Node built-in or Buffer in the core (the adapters and the CLI excepted)', () => {
    breaks(nodeInCore, 'src/engine/files.ts', "import { readFileSync } from 'node:fs';", ['src/engine/files.ts: node:fs']);
    breaks(nodeInCore, 'src/state/labs/pdf.ts', "import { createHash } from 'crypto';", ['src/state/labs/pdf.ts: crypto']);
    breaks(nodeInCore, 'src/engine/bytes.ts', 'const b = Buffer.from(text);', ['src/engine/bytes.ts: Buffer']);
    breaks(nodeInCore, 'src/engine/bytes.ts', '// Buffer.from(text) would not run in a browser', []);
    breaks(nodeInCore, 'src/adapters/express.ts', "import { readFileSync } from 'node:fs';", []);
    breaks(nodeInCore, 'src/cli.ts', 'const b = Buffer.from(text);', []);
  });

  it('a function of src with more than 6 positional parameters', () => {
    const path = 'src/fixtures/wearables/cadence.ts';
    breaks(longParameterLists, path, 'export function feed(a: number, b, c, d, e, f, g: Map<string, number>): void {}', [
      `${path}:1 feed: 7 positional parameters`,
    ]);
    const method = [
      'class Engine {',
      '  private failed(',
      '    a: A,',
      '    b: (x: number, y: number) => void,',
      '    c, d, e, f, g,',
      '  ): void {}',
      '}',
    ];
    breaks(longParameterLists, path, method.join('\n'), [`${path}:2 failed: 7 positional parameters`]);
    breaks(longParameterLists, path, 'const f = async <T>(a, b, c, d, e, f, g = [1, 2]): Promise<T> => a;', [
      `${path}:1 f: 7 positional parameters`,
    ]);
    breaks(longParameterLists, path, 'type Visit = (a, b, c, d, e, f, g) => void;', [`${path}:1 Visit: 7 positional parameters`]);
    // Six, an options object (one parameter however many fields), a trailing comma, commas in types and defaults.
    breaks(longParameterLists, path, 'function ok(a, b, c, d, e, f,) {}', []);
    breaks(longParameterLists, path, "function ok({ a, b, c, d, e, f, g }: Opts, h: Map<K, V>, i = [1, 2], j = 'x,y,z,w,v,u') {}", []);
    // Calls are no parameter lists: a statement, an argument, a ternary's first branch; comments and strings are not code.
    breaks(
      longParameterLists,
      path,
      'g(a, b, c, d, e, f, h);\nconst x = k ? g(a, b, c, d, e, f, h) : null;\n// function old(a, b, c, d, e, f, g) {}',
      [],
    );
    breaks(longParameterLists, path, "const s = 'function s(a, b, c, d, e, f, g) {}';", []);
    // Only src counts.
    breaks(longParameterLists, 'test/labs/helpers.ts', 'function h(a, b, c, d, e, f, g) {}', []);
  });

  it('a map keyed by worlds outside engine/world.ts', () => {
    const path = 'src/state/webhooks/destinations.ts';
    breaks(worldKeyedMaps, path, 'const verdicts = new WeakMap<World, Verdicts>();', [`${path}: WeakMap<World,`]);
    breaks(worldKeyedMaps, path, 'let seen: Map<World, number> | undefined;', [`${path}: Map<World,`]);
    breaks(worldKeyedMaps, path, "const verdictsOf = worldSlot('verdicts', () => ({}), 'aside');", []);
    breaks(worldKeyedMaps, path, '// once a WeakMap<World, Verdicts>', []);
    breaks(worldKeyedMaps, 'src/engine/world.ts', 'const asides = new WeakMap<World, Map<symbol, unknown>>();', []);
  });

  it('an adapter that calls a guard or canonical-path check itself, or the front door twice', () => {
    const path = 'src/adapters/node-common.ts';
    breaks(adapterBypassesDoor, path, "import { guardRequest, type NetworkOptions } from '../engine/guard.js';", [
      `${path}: guardRequest from ../engine/guard.js`,
    ]);
    breaks(adapterBypassesDoor, path, "import { canonicalPath, canonicalPrefix } from '../engine/canonical-path.js';", [
      `${path}: canonicalPath from ../engine/canonical-path.js`,
    ]);
    breaks(adapterBypassesDoor, path, 'const a = frontDoor(door, raw);\nconst b = frontDoor(door, again);', [
      `${path}: frontDoor called 2 times`,
    ]);
    breaks(adapterBypassesDoor, path, "import { frontDoor } from '../engine/front-door.js';\nconst a = frontDoor(door, raw);", []);
    breaks(adapterBypassesDoor, path, "import type { NetworkOptions } from '../engine/guard.js';", []);
    breaks(adapterBypassesDoor, 'src/engine/front-door.ts', "import { guardRequest } from './guard.js';", []);
  });

  it('a state function taking (world, partition) positionally or an OrderEnv / UsersScope, a handler calling orderEnv(', () => {
    const path = 'src/state/labs/old.ts';
    const takes = (at: string) => `${path}:${at} takes a World and a Partition positionally (take d: Domain)`;
    breaks(positionalWorldPartition, path, 'export function f(world: World, partition: Partition, id: string) {}', [takes('1 f')]);
    breaks(positionalWorldPartition, path, 'export function f(\n  w: World,\n  p: Partition,\n) {}', [takes('1 f')]);
    // Not only the first two: a listener's (world, entry, partition), either order, a method, a private helper, a function type.
    breaks(positionalWorldPartition, path, 'export function onEvent(world: World, entry: JournalEntry, partition: Partition): void {}', [
      takes('1 onEvent'),
    ]);
    breaks(positionalWorldPartition, path, '\nfunction seed(store: Store, partition: Partition, world: World): void {}', [takes('2 seed')]);
    breaks(positionalWorldPartition, path, 'class A {\n  constructor(private readonly world: World, p?: Partition) {}\n}', [
      takes('2 constructor'),
    ]);
    breaks(positionalWorldPartition, path, 'export type Listener = (world: World, partition: Partition) => void;', [takes('1 Listener')]);
    breaks(positionalWorldPartition, path, 'export function f(env: OrderEnv) {}', [`${path} uses OrderEnv`]);
    breaks(positionalWorldPartition, path, 'export function f(scope: UsersScope) {}', [`${path} uses UsersScope`]);
    breaks(positionalWorldPartition, 'src/handlers/labs/h.ts', 'handle: (ctx) => reply(200, f(orderEnv(ctx.world, ctx.partition)))', [
      'src/handlers/labs/h.ts calls orderEnv(',
    ]);
    // The compliant forms: a Domain first, a world alone, the handler passing ctx; and files outside src/state.
    breaks(
      positionalWorldPartition,
      path,
      [
        'export function f(d: Domain, id: string) {}',
        'export function g(world: World, id: string) {}',
        'export function h(world: World, { partition }: { partition: Partition }) {}',
        'export const k = partitionSlot((partition, world) => f({ world, partition }, g(world, partition.id)));',
        '// a comment may say (world: World, partition: Partition), and OrderEnv',
      ].join('\n'),
      [],
    );
    breaks(positionalWorldPartition, 'src/handlers/labs/h.ts', 'handle: (ctx) => reply(200, f(ctx))', []);
    breaks(positionalWorldPartition, 'src/engine/bus.ts', 'export function f(world: World, partition: Partition) {}', []);
  });
});
