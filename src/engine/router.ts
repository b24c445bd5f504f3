/**
 * Compiles the route table once into a tree of segments per surface: literal segments are looked
 * up by value and preferred over `:param` at each position (static before dynamic).
 */
import type { Surface } from './http-types.js';
import type { Route } from './route.js';
import { pathSegments } from './canonical-path.js';

interface Compiled {
  route: Route;
  /** Index -> param name, for `:param` segments. */
  params: Array<string | null>;
}

/**
 * One position of the segment tree: the literal segments that go on from here (looked up by
 * value), the `:param` that does, and the routes whose path ends here (one shape, table order).
 */
interface Node {
  statics: Map<string, Node>;
  param: Node | undefined;
  routes: Compiled[];
}

interface Match {
  route: Route;
  params: Record<string, string>;
}

type MatchResult = { kind: 'ok'; match: Match } | { kind: 'method'; allow: string[] } | { kind: 'none' };

const NONE: MatchResult = { kind: 'none' };

const newNode = (): Node => ({ statics: new Map(), param: undefined, routes: [] });

export function surfaceOf(route: Route): Surface {
  return route.surface ?? (route.auth === 'management' ? 'management' : 'data');
}

function splitPath(path: string): string[] {
  const parts = path.split('/');
  const out: string[] = [];
  for (const p of parts) if (p !== '') out.push(p);
  return out;
}

/** A path's place in the tree: the node where a route's path ends, and the path's segments (the params' values). */
interface Found {
  leaf: Node;
  segments: readonly string[];
}

/** How many paths each surface's memo keeps (cleared when full), and the longest path it keeps. */
const RECENT_PATHS = 1024;
const RECENT_PATH_LENGTH = 256;

export class Router {
  /** Per surface, the tree of route segments. */
  private readonly roots: Record<Surface, Node> = { data: newNode(), management: newNode() };
  /**
   * Per surface, recent paths that reached a route's end in the tree: a pure memo (the tree never
   * changes), so a path asked again (a client reading the same record) costs one lookup, no split.
   */
  private readonly recent: Record<Surface, Map<string, Found>> = { data: new Map(), management: new Map() };

  constructor(readonly routes: readonly Route[]) {
    const seen = new Set<string>();
    for (const route of routes) {
      const segments = splitPath(route.path);
      const shape = segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
      const key = `${route.method} ${surfaceOf(route)} ${shape}`;
      if (seen.has(key)) throw new Error(`Duplicate route ${route.method} ${route.path} (${route.id})`);
      seen.add(key);
      let node = this.roots[surfaceOf(route)];
      for (const s of segments) {
        if (s.startsWith(':')) node = node.param ??= newNode();
        else {
          let next = node.statics.get(s);
          if (!next) node.statics.set(s, (next = newNode()));
          node = next;
        }
      }
      node.routes.push({ route, params: segments.map((s) => (s.startsWith(':') ? s.slice(1) : null)) });
    }
  }

  /**
   * Matches a canonical path (canonical-path.ts: decoded once by the adapter, dot segments and
   * empty segments gone). Nothing is decoded here a second time: only the kept `%2F` and `%25`
   * turn back into `/` and `%` inside their segment.
   */
  match(surface: Surface, method: string, path: string): MatchResult {
    const recent = this.recent[surface] as Map<string, Found> | undefined;
    let found = recent?.get(path);
    if (found === undefined) {
      const segments = pathSegments(path);
      // The most specific shape that fits the path wins, whatever the method: a literal segment
      // always beats a parameter, position by position from the left (`DELETE /v2/user/undo_delete`
      // is a 405, not a user id).
      const root = this.roots[surface] as Node | undefined;
      const leaf = root === undefined ? undefined : find(root, segments, 0);
      if (leaf === undefined) return NONE;
      found = { leaf, segments };
      if (recent !== undefined && path.length <= RECENT_PATH_LENGTH) {
        if (recent.size >= RECENT_PATHS) recent.clear();
        recent.set(path, found);
      }
    }
    const { leaf, segments } = found;
    for (const c of leaf.routes) {
      if (c.route.method !== method) continue;
      const params: Record<string, string> = {};
      const names = c.params;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        if (name !== null && name !== undefined) params[name] = segments[i] as string;
      }
      return { kind: 'ok', match: { route: c.route, params } };
    }
    const allow: string[] = [];
    for (const c of leaf.routes) if (!allow.includes(c.route.method)) allow.push(c.route.method);
    return { kind: 'method', allow };
  }
}

/** The first node, literals tried before the parameter at each position, where a route's path ends. */
function find(node: Node, segments: readonly string[], i: number): Node | undefined {
  if (i === segments.length) return node.routes.length > 0 ? node : undefined;
  const literal = node.statics.get(segments[i] as string);
  if (literal !== undefined) {
    const found = find(literal, segments, i + 1);
    if (found !== undefined) return found;
  }
  return node.param === undefined ? undefined : find(node.param, segments, i + 1);
}
