/**
 * The request journal in the control client (`control.requests.*`): `list(filter)` reads
 * `GET /_sandbox/requests`; `expect(match)` answers the newest request matching and otherwise
 * throws an Error listing the closest requests (by path similarity first, then how many of the
 * given fields they meet, then recency), so a failing test says what the code did send.
 */
import { queryOf, type Requester } from './control-groups.js';
import { pathOfPattern, pathSimilarity } from './path-similarity.js';
import type { RequestEntry, RequestPage } from './types.js';

export interface RequestFilter {
  /** An exact status (`404`) or a class (`'4xx'`). */
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  /** A route id (`users.create`), a prefix ending in `*` (`users.*`), or `none` (no route matched). */
  route?: string;
  /** Part of the path. */
  path?: string;
  method?: string;
  team_id?: string;
  /** Only requests after this one (`req_12`), or at or after this sandbox time (ISO). */
  since?: string;
  /** Most recent N (1 to 10000, default 100). */
  limit?: number;
}

/** What `expect` looks for; every given field must hold. */
export interface RequestMatch {
  method?: string;
  /** The exact path, or a pattern. */
  path?: string | RegExp;
  route?: string;
  status?: number | `${1 | 2 | 3 | 4 | 5}xx`;
  team_id?: string;
  since?: string;
  /** Part of the request body (as text, keys masked). */
  body?: string;
}

export interface RequestControls {
  /** Journal entries matching the filter, newest first. */
  list(filter?: RequestFilter): Promise<RequestEntry[]>;
  /** The whole page: entries and the journal's size, count recorded and whether all bodies are kept. */
  page(filter?: RequestFilter): Promise<RequestPage>;
  /** The newest request matching; rejects with an Error listing the closest requests when none does. */
  expect(match: RequestMatch): Promise<RequestEntry>;
}

/** Whether a status fits; a dropped connection (no status) fits only no status asked. */
const statusFits = (want: RequestMatch['status'], got: number | null) =>
  want === undefined || (got !== null && (typeof want === 'number' ? want === got : Math.floor(got / 100) === Number(want[0])));

/** How many of the given fields an entry meets (for ranking the closest). */
function fits(match: RequestMatch, e: RequestEntry): { all: boolean; score: number } {
  const checks = [
    match.method === undefined || e.method === match.method.toUpperCase(),
    match.path === undefined || (typeof match.path === 'string' ? e.path === match.path : match.path.test(e.path)),
    match.route === undefined ||
      (match.route === 'none'
        ? e.route_id === null
        : match.route.endsWith('*')
          ? (e.route_id ?? '').startsWith(match.route.slice(0, -1))
          : e.route_id === match.route),
    statusFits(match.status, e.status),
    match.team_id === undefined || e.team_id === match.team_id,
    match.body === undefined || (e.request.body ?? '').includes(match.body),
  ];
  const score = checks.filter(Boolean).length;
  return { all: score === checks.length, score };
}

const line = (e: RequestEntry) =>
  `  ${e.id} ${e.method} ${e.path}${e.query ? `?${e.query}` : ''} -> ${e.status ?? 'dropped'} (${e.route_id ?? 'no route'}${
    e.near_misses?.length ? `; nearly ${e.near_misses.map((n) => `${n.method} ${n.path}`).join(', ')}` : ''
  })`;

export function requestControls(request: Requester): RequestControls {
  const page = async (filter?: RequestFilter): Promise<RequestPage> => request('GET', `/_sandbox/requests${queryOf(filter)}`);
  return {
    page,
    list: async (filter) => (await page(filter)).requests,
    async expect(match) {
      const { requests } = await page({ limit: 10000, ...(match.since ? { since: match.since } : {}) });
      const found = requests.find((e) => fits(match, e).all);
      if (found) return found;
      const wantedPath = match.path === undefined ? undefined : typeof match.path === 'string' ? match.path : pathOfPattern(match.path);
      const closest = requests
        .map((e, i) => ({
          e,
          i,
          score: fits(match, e).score,
          // Two decimals: paths alike to within 1% rank by the other fields.
          path: wantedPath === undefined ? 0 : Math.round(pathSimilarity(wantedPath, e.path) * 100),
        }))
        .sort((a, b) => b.path - a.path || b.score - a.score || a.i - b.i)
        .slice(0, 5)
        .map(({ e }) => line(e));
      const wanted = JSON.stringify(match, (_k, v: unknown) => (v instanceof RegExp ? String(v) : v));
      throw new Error(
        `No request matched ${wanted} among the ${requests.length} in the journal.${
          closest.length ? `\nClosest requests:\n${closest.join('\n')}` : ''
        }`,
      );
    },
  };
}
