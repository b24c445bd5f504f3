/**
 * The rules of the code's shape (design.md sections 7 and 8, docs/ENGINE.md "The shape of an
 * area"), each a function over source files given as (path, text): `test/engine/architecture.test.ts`
 * runs them over the repository, `test/engine/architecture-rules.test.ts` feeds each one a
 * synthetic file that breaks it and expects the rule to report it. A rule answers the problems it
 * found, one line each (an empty list: the rule holds).
 *
 * Paths are relative to the repository root with `/` separators (`src/state/labs/orders.ts`).
 */
import { posix } from 'node:path';

/** Source files by path: the tree a rule looks into when it needs another file (an import's target). */
export type Tree = ReadonlyMap<string, string>;

/** A rule over one file, with the rest of the tree at hand. */
export type FileRule = (path: string, source: string, tree: Tree) => string[];

/** Runs a per-file rule over every file of the tree. */
export function check(rule: FileRule, tree: Tree): string[] {
  return [...tree].flatMap(([path, source]) => rule(path, source, tree));
}

const inHandlers = (path: string) => path.startsWith('src/handlers/') && !path.endsWith('/area.ts');
const inState = (path: string) => path.startsWith('src/state/');

/** Relative imports of a file, resolved to source paths (type-only imports included: they still tie modules). */
function importsOf(path: string, source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g))
    out.push(posix.join(posix.dirname(path), (m[1] as string).replace(/\.js$/, '.ts')));
  return out;
}

/** The names of `import { a, type B, c as d } from '<from>'` clauses (the imported names, not the local ones). */
function namedImports(source: string): Array<{ names: string[]; from: string }> {
  return [...source.matchAll(/import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*'([^']+)'/g)].map((m) => ({
    from: m[2] as string,
    names: (m[1] as string)
      .split(',')
      .map(
        (x) =>
          x
            .trim()
            .replace(/^type\s+/, '')
            .split(/\s+as\s+/)[0] as string,
      )
      .filter((x) => x.length > 0),
  }));
}

/** No import cycles among the tree's files. */
export function importCycles(tree: Tree): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const cycles: string[] = [];
  const visit = (f: string, stack: string[]) => {
    if (state.get(f) === 'done') return;
    if (state.get(f) === 'open') {
      cycles.push([...stack.slice(stack.indexOf(f)), f].join(' -> '));
      return;
    }
    state.set(f, 'open');
    for (const g of importsOf(f, tree.get(f) ?? '')) if (tree.has(g)) visit(g, [...stack, f]);
    state.set(f, 'done');
  };
  for (const f of tree.keys()) visit(f, []);
  return cycles;
}

/** A handler file defines routes; an area's shared request schemas and renderers (no routes) may be shared; area.ts gathers. */
export const handlerImportsHandler: FileRule = (path, source, tree) => {
  if (!inHandlers(path)) return [];
  return importsOf(path, source)
    .filter((g) => g.startsWith('src/handlers/') && /\bdefineRoute\(/.test(tree.get(g) ?? ''))
    .map((g) => `${path} -> ${g}`);
};

/**
 * The store slots a state file exports (`export const xOf = partitionSlot(...)` / `worldSlot(...)`,
 * or a store reached from the domain context: `export function xOf(d: Domain): XStore`).
 */
function slotsOf(source: string): string[] {
  const slots = [...source.matchAll(/export const (\w+) = (?:partitionSlot|worldSlot)\(/g)].map((m) => m[1] as string);
  const fromDomain = [...source.matchAll(/export function (\w+)\(\w+: Domain\): \w*Store\b/g)].map((m) => m[1] as string);
  return [...slots, ...fromDomain];
}

/** A handler does not check state: it imports no store slot of src/state and reads no keyed Map (`.byId`, `.byX`). */
export const handlerReadsStore: FileRule = (path, source, tree) => {
  if (!inHandlers(path)) return [];
  const bad: string[] = [];
  for (const { names, from } of namedImports(source)) {
    if (!from.startsWith('.')) continue;
    const target = posix.join(posix.dirname(path), from.replace(/\.js$/, '.ts'));
    const slots = inState(target) ? slotsOf(tree.get(target) ?? '') : [];
    for (const n of names) if (slots.includes(n)) bad.push(`${path} imports the store slot ${n}`);
  }
  for (const m of source.matchAll(/\.(by[A-Z]\w*)\b/g)) bad.push(`${path} reads .${m[1] as string}`);
  return bad;
};

/** A store other modules can reach (its slot is exported) keeps its keyed Maps (`by*`) private. */
export const storeMapsPublic: FileRule = (path, source) => {
  if (!inState(path) || slotsOf(source).length === 0) return [];
  return [...source.matchAll(/^\s+(?:public\s+)?readonly (by[A-Z]\w*)\s*(?::[^=]+)?= new Map/gm)].map((m) => `${path}: ${m[1] as string}`);
};

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

/** Domain code raises its area's typed errors; only the catalogues (`errors.ts`) build HTTP errors. */
export const domainBuildsHttpErrors: FileRule = (path, source) => {
  if (!inState(path) || path.endsWith('/errors.ts')) return [];
  return namedImports(source)
    .filter(({ from }) => /^[./]*engine\/errors\.js$/.test(from))
    .flatMap(({ names }) => names.filter((n) => HTTP_HELPERS.has(n)).map((n) => `${path} imports ${n}`));
};

/** The request context (`Ctx`, `SimRequest`, engine/route.ts, engine/dispatch.ts) never enters src/state. */
export const requestContextInState: FileRule = (path, source) => {
  if (!inState(path)) return [];
  const bad = importsOf(path, source)
    .filter((g) => /^src\/engine\/(route|dispatch)\.ts$/.test(g))
    .map((g) => `${path} imports ${g}`);
  for (const { names } of namedImports(source))
    for (const n of names) if (n === 'Ctx' || n === 'SimRequest') bad.push(`${path} imports ${n}`);
  return bad;
};

/** The top-level items of the parenthesised list opening at `open` (a destructured object or a generic type is one item). */
function listItems(code: string, open: number): string[] {
  const items: string[] = [];
  let depth = 0;
  let angle = 0;
  let start = open + 1;
  for (let i = open + 1; i < code.length; i++) {
    const c = code[i] as string;
    if (c === '=' && code[i + 1] === '>') i++;
    else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return [...items, code.slice(start, i)];
      depth--;
    } else if (c === '<') angle++;
    else if (c === '>') angle = Math.max(0, angle - 1);
    else if (c === ',' && depth === 0 && angle === 0) {
      items.push(code.slice(start, i));
      start = i + 1;
    }
  }
  return items;
}

/** A parameter item typed exactly `type` (`name: Type`, `name?: Type`, a constructor's modifiers allowed). */
const typedAs = (item: string, type: string) =>
  new RegExp(`^\\s*(?:(?:public|private|protected|readonly)\\s+)*[\\w$]+\\??\\s*:\\s*${type}\\s*$`).test(item);

/**
 * `Domain` (`{ world, partition }`) is the one way into a team environment's state: no function,
 * method or function type of src/state takes a `World` and a `Partition` as two positional
 * parameters (first two or anywhere, either order: `(world, entry, partition)` was a listener's
 * way round it), nor an `OrderEnv` / `UsersScope` context; and no handler builds one with
 * `orderEnv(` (it passes its `ctx`). Only a parameter list has `name: Type` items at its top level.
 */
export const positionalWorldPartition: FileRule = (path, source) => {
  const bad: string[] = [];
  if (inState(path)) {
    const code = codeOnly(source);
    for (let open = code.indexOf('('); open >= 0; open = code.indexOf('(', open + 1)) {
      const items = listItems(code, open);
      if (!items.some((x) => typedAs(x, 'World')) || !items.some((x) => typedAs(x, 'Partition'))) continue;
      const line = code.slice(0, open).split('\n').length;
      const name = /([\w$]+)\s*(?:=\s*(?:async\s*)?)?(?:<[^()]*>)?\s*$/.exec(code.slice(Math.max(0, open - 80), open))?.[1] ?? '(arrow)';
      bad.push(`${path}:${line} ${name} takes a World and a Partition positionally (take d: Domain)`);
    }
    for (const name of ['OrderEnv', 'UsersScope']) if (new RegExp(`\\b${name}\\b`).test(code)) bad.push(`${path} uses ${name}`);
  }
  if (inHandlers(path) && /\borderEnv\(/.test(source)) bad.push(`${path} calls orderEnv(`);
  return bad;
};

/** A handler file (area.ts included: seeds come from src/state) imports no fixture module: answers its path when it does. */
export const handlerImportsFixtures: FileRule = (path, source) =>
  path.startsWith('src/handlers/') && importsOf(path, source).some((g) => g.startsWith('src/fixtures/')) ? [path] : [];

/**
 * One error-catalogue layout, for an `src/state/<area>/errors.ts`: the texts as `<AREA>_ERRORS`
 * (more tables as UPPER_CASE constants), the typed errors as one `<area>Error` object; nothing else exported.
 */
export const errorCatalogueLayout: FileRule = (path, source) => {
  const area = /^src\/state\/([^/]+)\/errors\.ts$/.exec(path)?.[1];
  if (!area) return [];
  const bad: string[] = [];
  const values = [...source.matchAll(/^export (?:const|function|class|let) (\w+)/gm)].map((m) => m[1] as string);
  if (!values.includes(`${area.toUpperCase()}_ERRORS`)) bad.push(`${path}: no ${area.toUpperCase()}_ERRORS`);
  if (!values.includes(`${area}Error`)) bad.push(`${path}: no ${area}Error`);
  for (const v of values) if (v !== `${area}Error` && !/^[A-Z][A-Z0-9_]*$/.test(v)) bad.push(`${path}: exports ${v}`);
  return bad;
};

/** Every area folder of src/state has its catalogue (`errors.ts`). */
export function areasWithoutCatalogue(tree: Tree): string[] {
  const areas = new Set([...tree.keys()].map((p) => /^src\/state\/([^/]+)\//.exec(p)?.[1]).filter((a) => a !== undefined));
  return [...areas].filter((a) => !tree.has(`src/state/${a}/errors.ts`)).map((a) => `src/state/${a}: no errors.ts`);
}

/** The unchecked replies (`json(...)`) of a route file, one line each. */
export const uncheckedReplies: FileRule = (path, source) =>
  path.startsWith('src/handlers/') ? [...source.matchAll(/(?<!\.)\bjson\(/g)].map(() => path) : [];

/** Files over `max` lines (with a tenth of slack), but for the `known` ones. */
export function overLineCap(max: number, known: ReadonlySet<string> = new Set()): FileRule {
  return (path, source) => {
    const n = source.split('\n').length;
    return n > max * 1.1 && !known.has(path) ? [`${path}: ${n} lines`] : [];
  };
}

/**
 * The test folders that are not areas: each names a part of the engine or a way of testing it
 * (never a piece of work: `test/hardening`, `test/newcomer` were).
 */
export const TEST_FOLDERS_BESIDE_AREAS = [
  'adapters',
  'binary',
  'browser',
  'cli',
  'engine',
  'faults',
  'journal',
  'package',
  'persistence',
  'route-table',
  'scenario',
  'support',
  'testkit',
];

/** A test file sits in a folder named after an area (a folder of src/state) or after one of `TEST_FOLDERS_BESIDE_AREAS`. */
export const testFolderByArea: FileRule = (path, _source, tree) => {
  const folder = /^test\/([^/]+)\//.exec(path)?.[1];
  // Dot folders are the tests' build output (`test/.artifacts`), not tests.
  if (folder === undefined || folder.startsWith('.') || TEST_FOLDERS_BESIDE_AREAS.includes(folder)) return [];
  const isArea = [...tree.keys()].some((p) => p.startsWith(`src/state/${folder}/`));
  return isArea ? [] : [`${path}: test/${folder} is neither an area nor one of the engine's parts`];
};

/** The Node-only files of src: the adapters, the CLI and the entries that re-export Node adapters. */
const NODE_ONLY = /^src\/(adapters\/|cli\.ts$|express\.ts$|node\.ts$|testing\.ts$)/;
const NODE_BUILTIN =
  /(?:from|import)\s*\(?\s*['"]((?:node:)?(?:fs|path|crypto|os|http|https|net|zlib|url|util|stream|child_process|buffer|events|module|worker_threads)(?:\/[a-z]+)?)['"]/g;

/** The core (src but its Node-only files) imports no Node built-in and uses no Buffer, so it runs in a browser. */
export const nodeInCore: FileRule = (path, source) => {
  if (!path.startsWith('src/') || NODE_ONLY.test(path)) return [];
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');
  const bad = [...code.matchAll(NODE_BUILTIN)].map((m) => `${path}: ${m[1] as string}`);
  if (/\bBuffer\s*[.(<[]|:\s*Buffer\b/.test(code)) bad.push(`${path}: Buffer`);
  return bad;
};

/** Most positional parameters a function or method of src may take (more: an options object, destructured). */
export const MAX_POSITIONAL = 6;

/** Comments blanked and string literals emptied (same length of lines kept: line numbers still hold). */
function codeOnly(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|[^`\\])*`/g, (t) =>
    t.startsWith('/') ? t.replace(/[^\n]/g, ' ') : t.replace(/[^\n]/g, '').padStart(2, t[0] as string),
  );
}

/** The index of the `)` closing the `(` at `open`, and the top-level items between them. */
function paramList(code: string, open: number): { close: number; items: number } {
  let depth = 0;
  let angle = 0;
  let items = 0;
  let filled = false;
  for (let i = open + 1; i < code.length; i++) {
    const c = code[i] as string;
    if (c === '=' && code[i + 1] === '>') {
      i++;
      filled = true;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') {
      if (depth === 0) return { close: i, items: items + (filled ? 1 : 0) };
      depth--;
    } else if (c === '<') angle++;
    else if (c === '>') angle = Math.max(0, angle - 1);
    else if (c === ',' && depth === 0 && angle === 0) {
      items++;
      filled = false;
      continue;
    }
    if (!/\s/.test(c)) filled = true;
  }
  return { close: code.length, items: 0 };
}

/**
 * What comes before a parameter list followed by a return type, on its line: `function name`, a
 * method's name (with its modifiers) at the start of the line, or where an arrow function starts
 * (the `:` after a call in a ternary's first branch is no return type).
 */
const DECLARED =
  /(?:\bfunction\b\s*\*?\s*[\w$]*|^\s*(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)\s+)*[\w$]+\s*\??|(?:^|[=(,:]|=>|\basync)\s*)\s*(?:<.*>)?\s*$/;

/**
 * No function, method, arrow function or function type of src takes more than `MAX_POSITIONAL`
 * positional parameters: every parenthesised list with more top-level items is checked, and it is a
 * parameter list when a body (`{`), a return type (`:`, see DECLARED) or an arrow (`=>`) follows
 * it (a call is followed by none of these). Items inside `()`, `[]`, `{}` and `<>` (a destructured options
 * object, a generic type) are one parameter.
 */
export const longParameterLists: FileRule = (path, source) => {
  if (!path.startsWith('src/')) return [];
  const code = codeOnly(source);
  const bad: string[] = [];
  for (let open = code.indexOf('('); open >= 0; open = code.indexOf('(', open + 1)) {
    const { close, items } = paramList(code, open);
    const next = /^\s*(:|=>|\{)/.exec(code.slice(close + 1, close + 40))?.[1];
    if (items <= MAX_POSITIONAL || next === undefined) continue;
    if (next === ':' && !DECLARED.test(code.slice(code.lastIndexOf('\n', open) + 1, open))) continue;
    const line = code.slice(0, open).split('\n').length;
    const name = /([\w$]+)\s*(?:=\s*(?:async\s*)?)?(?:<[^()]*>)?\s*$/.exec(code.slice(Math.max(0, open - 80), open))?.[1] ?? '(arrow)';
    bad.push(`${path}:${line} ${name}: ${items} positional parameters`);
  }
  return bad;
};

/** Source without comments (a rule about code does not read prose). */
const codeOf = (source: string) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/\/\/.*$/gm, '');

/**
 * One way to attach state to a world (design.md rule 17, issue 48): `worldSlot` (engine/world.ts,
 * with its `state`, `aside` and `kept` places); no other module keeps a map keyed by worlds.
 */
export const worldKeyedMaps: FileRule = (path, source) => {
  if (!path.startsWith('src/') || path === 'src/engine/world.ts') return [];
  return [...codeOf(source).matchAll(/\b(?:Weak)?Map<\s*World\s*,/g)].map((m) => `${path}: ${m[0]}`);
};

/** What an adapter may take of the guard and canonical-path modules: types, and a configured prefix's form. */
const DOOR_MODULES: Record<string, ReadonlySet<string>> = {
  'engine/guard.js': new Set(['NetworkOptions', 'GuardContext']),
  'engine/canonical-path.js': new Set(['canonicalPrefix', 'CanonicalPath']),
};

/**
 * One front door (design.md rules 12 and 17): an adapter hands the request to `frontDoor` once
 * and calls none of the guard's or the canonical path's per-request checks itself.
 */
export const adapterBypassesDoor: FileRule = (path, source) => {
  if (!path.startsWith('src/adapters/')) return [];
  const bad: string[] = [];
  for (const { names, from } of namedImports(source)) {
    const allowed = Object.entries(DOOR_MODULES).find(([module]) => from.endsWith(`/${module}`))?.[1];
    if (allowed !== undefined) for (const n of names) if (!allowed.has(n)) bad.push(`${path}: ${n} from ${from}`);
  }
  const calls = [...codeOf(source).matchAll(/\bfrontDoor\(/g)].length;
  if (calls > 1) bad.push(`${path}: frontDoor called ${calls} times`);
  return bad;
};
