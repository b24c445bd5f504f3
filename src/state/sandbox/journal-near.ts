/**
 * Near misses of a request no route matched (a 404 or 405 of the engine): the closest routes of
 * the table, as WireMock's near-miss report does. Computed from the route table only for those
 * answers, never for a matched request. Kinds, closest first:
 * - `method`: the path is served, with another method;
 * - `surface`: the path is served on the other URL (data vs management);
 * - `version`: the path lacks (or has another) version prefix (`/user` for `/v2/user`);
 * - `segment`: one literal segment differs (`/v2/usr` for `/v2/user`), nearest spelling first.
 */
import type { Route } from '../../engine/route.js';
import { surfaceOf } from '../../engine/router.js';

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

/** Literal segments of `pattern` that differ from `segments` (params fit anything); -1 if lengths differ. */
function misfits(pattern: string[], segments: string[]): number[] {
  if (pattern.length !== segments.length) return [-1];
  const out: number[] = [];
  pattern.forEach((p, i) => {
    if (!p.startsWith(':') && p !== segments[i]) out.push(i);
  });
  return out;
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
  const found: Array<NearMiss & { score: number }> = [];
  const unversioned = VERSION.test(segments[0] ?? '') ? segments.slice(1) : segments;
  for (const route of routes) {
    const pattern = split(route.path);
    const routeSurface = surfaceOf(route);
    const base = { route_id: route.id, method: route.method, surface: routeSurface, path: route.path };
    const off = misfits(pattern, segments);
    if (off.length === 0) {
      if (routeSurface === surface && route.method !== method) {
        found.push({ ...base, kind: 'method', hint: `${route.method}, not ${method}`, score: 0 });
      } else if (routeSurface !== surface && route.method === method) {
        found.push({ ...base, kind: 'surface', hint: `served on the ${routeSurface} URL`, score: 0 });
      }
      continue;
    }
    if (routeSurface !== surface || route.method !== method) continue;
    // A version prefix missing or different: `/user` or `/v1/user` for `/v2/user`.
    if (VERSION.test(pattern[0] ?? '') && misfits(pattern.slice(1), unversioned).length === 0 && pattern[0] !== segments[0]) {
      found.push({ ...base, kind: 'version', hint: `version prefix /${pattern[0]}`, score: 0 });
      continue;
    }
    if (off.length === 1 && off[0] !== -1) {
      const i = off[0] as number;
      const want = pattern[i] as string;
      const got = segments[i] ?? '';
      const d = distance(got, want);
      if (d <= Math.max(2, Math.ceil(want.length / 2))) found.push({ ...base, kind: 'segment', hint: `"${want}", not "${got}"`, score: d });
    }
  }
  found.sort((a, b) => RANK[a.kind] - RANK[b.kind] || a.score - b.score);
  return found.slice(0, MAX).map(({ score: _score, ...miss }) => miss);
}
