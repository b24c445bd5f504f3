/**
 * Near misses of a request no route matched (a 404 or 405 of the engine): the closest routes of
 * the table, as WireMock's near-miss report does. Computed from the route table only for those
 * answers, never for a matched request. Kinds, closest first:
 * - `method`: the path is served, with another method;
 * - `surface`: the path is served on the other URL (data vs management);
 * - `version`: the path lacks (or has another) version prefix (`/user` for `/v2/user`);
 * - `segment`: one literal segment differs (`/v2/usr` for `/v2/user`), nearest spelling first.
 */
import type { Route } from './route.js';
import { surfaceOf } from './router.js';

export interface NearMiss {
  route_id: string;
  method: string;
  surface: string;
  path: string;
  kind: 'method' | 'surface' | 'version' | 'segment';
  /** What differs, in words. */
  hint: string;
}

const MAX = 5;
const RANK = { method: 0, surface: 1, version: 2, segment: 3 } as const;
const VERSION = /^v\d+$/;

const split = (path: string): string[] => path.split('/').filter((s) => s !== '');

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** How many literal segments of `pattern` differ from `segments` (same length; params fit anything; stops at 2), and the first. */
function misfits(pattern: readonly string[], segments: readonly string[]): { count: number; at: number } {
  let count = 0;
  let at = -1;
  for (let i = 0; i < pattern.length && count < 2; i++) {
    const p = pattern[i] as string;
    if (p.charCodeAt(0) !== 58 && p !== segments[i]) {
      count++;
      if (at < 0) at = i;
    }
  }
  return { count, at };
}

interface Compiled {
  route: Route;
  pattern: string[];
  /** The pattern without its version prefix (`/v2`), when it has one. */
  rest: string[] | undefined;
  surface: string;
}

/** The route table split once (near misses are computed from it for every unmatched request). */
const compiledTables = new WeakMap<readonly Route[], Compiled[]>();
function compiled(routes: readonly Route[]): Compiled[] {
  let table = compiledTables.get(routes);
  if (!table) {
    table = routes.map((route) => {
      const pattern = split(route.path);
      return { route, pattern, rest: VERSION.test(pattern[0] ?? '') ? pattern.slice(1) : undefined, surface: surfaceOf(route) };
    });
    compiledTables.set(routes, table);
  }
  return table;
}

/** Levenshtein distance, for ranking one differing segment. */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}

/** The closest routes to `method path` on `surface` (at most 5, closest first). */
export function nearMisses(routes: readonly Route[], surface: string, method: string, path: string): NearMiss[] {
  const segments = split(path).map(safeDecode);
  const hasVersion = VERSION.test(segments[0] ?? '');
  const found: Array<NearMiss & { score: number }> = [];
  for (const { route, pattern, rest, surface: routeSurface } of compiled(routes)) {
    const same = routeSurface === surface && route.method === method;
    const base = { route_id: route.id, method: route.method, surface: routeSurface, path: route.path };
    if (pattern.length === segments.length) {
      const off = misfits(pattern, segments);
      if (off.count === 0) {
        if (routeSurface === surface && route.method !== method)
          found.push({ ...base, kind: 'method', hint: `${route.method}, not ${method}`, score: 0 });
        else if (routeSurface !== surface && route.method === method)
          found.push({ ...base, kind: 'surface', hint: `served on the ${routeSurface} URL`, score: 0 });
        continue;
      }
      if (!same || off.count !== 1) continue;
      const want = pattern[off.at] as string;
      const got = segments[off.at] ?? '';
      // Another version prefix: `/v1/user` for `/v2/user`.
      if (off.at === 0 && rest && hasVersion) found.push({ ...base, kind: 'version', hint: `version prefix /${want}`, score: 0 });
      else {
        // The distance is at least the difference in length: a segment far longer is no near miss,
        // and is never compared letter by letter (a read stays linear in the kept path).
        const most = Math.max(2, Math.ceil(want.length / 2));
        if (Math.abs(got.length - want.length) > most) continue;
        const d = distance(got, want);
        if (d <= most) found.push({ ...base, kind: 'segment', hint: `"${want}", not "${got}"`, score: d });
      }
    } else if (same && rest && !hasVersion && rest.length === segments.length && misfits(rest, segments).count === 0) {
      // No version prefix: `/user` for `/v2/user`.
      found.push({ ...base, kind: 'version', hint: `version prefix /${pattern[0] as string}`, score: 0 });
    }
  }
  found.sort((a, b) => RANK[a.kind] - RANK[b.kind] || a.score - b.score);
  return found.slice(0, MAX).map(({ score: _score, ...miss }) => miss);
}
