/**
 * Compiles the route table once: routes grouped by surface and segment count, literal
 * segments preferred over `:param` at each position (static before dynamic).
 */
import type { Surface } from './http-types.js';
import type { Route } from './route.js';
import { pathSegments } from './canonical-path.js';

interface Compiled {
  route: Route;
  segments: string[];
  /** Index -> param name, for `:param` segments. */
  params: Array<string | null>;
  score: number[];
  /** The path with every `:param` reduced to `:` (routes of one shape differ only by method). */
  shape: string;
}

interface Match {
  route: Route;
  params: Record<string, string>;
}

type MatchResult = { kind: 'ok'; match: Match } | { kind: 'method'; allow: string[] } | { kind: 'none' };

export function surfaceOf(route: Route): Surface {
  return route.surface ?? (route.auth === 'management' ? 'management' : 'data');
}

function splitPath(path: string): string[] {
  const parts = path.split('/');
  const out: string[] = [];
  for (const p of parts) if (p !== '') out.push(p);
  return out;
}

export class Router {
  /** Per surface, the routes of each segment count (index: the count). */
  private readonly groups: Record<Surface, Compiled[][]> = { data: [], management: [] };

  constructor(readonly routes: readonly Route[]) {
    const seen = new Set<string>();
    for (const route of routes) {
      const segments = splitPath(route.path);
      const shape = segments.map((s) => (s.startsWith(':') ? ':' : s)).join('/');
      const key = `${route.method} ${surfaceOf(route)} ${shape}`;
      if (seen.has(key)) throw new Error(`Duplicate route ${route.method} ${route.path} (${route.id})`);
      seen.add(key);
      const params = segments.map((s) => (s.startsWith(':') ? s.slice(1) : null));
      const compiled: Compiled = { route, segments, params, score: params.map((p) => (p === null ? 0 : 1)), shape };
      const bySize = this.groups[surfaceOf(route)];
      for (let n = bySize.length; n <= segments.length; n++) bySize.push([]);
      (bySize[segments.length] as Compiled[]).push(compiled);
    }
    for (const group of [...this.groups.data, ...this.groups.management]) {
      group.sort((a, b) => {
        for (let i = 0; i < a.score.length; i++) {
          const d = (a.score[i] ?? 0) - (b.score[i] ?? 0);
          if (d !== 0) return d;
        }
        // Routes of one shape stay next to each other (they differ only by method).
        return a.shape < b.shape ? -1 : a.shape > b.shape ? 1 : 0;
      });
    }
  }

  /**
   * Matches a canonical path (canonical-path.ts: decoded once by the adapter, dot segments and
   * empty segments gone). Nothing is decoded here a second time: only the kept `%2F` and `%25`
   * turn back into `/` and `%` inside their segment.
   */
  match(surface: Surface, method: string, path: string): MatchResult {
    const segments = pathSegments(path);
    const group = this.groups[surface]?.[segments.length];
    if (!group || group.length === 0) return { kind: 'none' };
    const allow: string[] = [];
    // The most specific shape that fits the path wins, whatever the method: a static segment
    // always beats a parameter (`DELETE /v2/user/undo_delete` is a 405, not a user id).
    let shape: string | undefined;
    for (const c of group) {
      if (shape !== undefined && c.shape !== shape) break;
      if (!fits(c, segments)) continue;
      shape = c.shape;
      if (c.route.method === method) {
        const params: Record<string, string> = {};
        const names = c.params;
        for (let i = 0; i < names.length; i++) {
          const name = names[i];
          if (name !== null && name !== undefined) params[name] = segments[i] as string;
        }
        return { kind: 'ok', match: { route: c.route, params } };
      }
      if (!allow.includes(c.route.method)) allow.push(c.route.method);
    }
    return allow.length > 0 ? { kind: 'method', allow } : { kind: 'none' };
  }
}

function fits(c: Compiled, segments: string[]): boolean {
  for (let i = 0; i < c.segments.length; i++) {
    if (c.params[i] === null && c.segments[i] !== segments[i]) return false;
  }
  return true;
}
