/**
 * Reading the request journal with filters (`GET /_sandbox/requests`, the control client's
 * `requests.list` and `requests.expect`). Newest first.
 */
import type { z } from 'zod';
import type { World } from '../../engine/world.js';
import type * as W from '../../wire/schemas.js';
import { journalOf, type RequestRecord } from '../../engine/journal.js';
import { READ_BODY_BUDGET, requestView, type RequestView, viewBodyBytes } from '../../engine/journal-view.js';

export interface RequestFilter {
  /** An exact status (`404`) or a class (`4xx`, `5xx`). */
  status?: string;
  /** A route id (`users.create`), or a prefix ending in `*` (`users.*`); `none` for requests no route matched. */
  route?: string;
  /** Part of the path (`/v2/user`). */
  path?: string;
  method?: string;
  team_id?: string;
  /** Only requests after this one (`req_12`), or at or after this sandbox time (ISO). */
  since?: string;
  /** Only this request (`req_12`). */
  id?: string;
  /** Most recent N (default 100). */
  limit?: number;
}

export const STATUS_FILTER = /^(?:[1-5]\d\d|[1-5]xx)$/;
export const SINCE_FILTER = /^req_\d+$/;

function matcher(filter: RequestFilter): (r: RequestRecord) => boolean {
  const { status, route, path, method, team_id } = filter;
  const statusClass = status?.endsWith('xx') ? Number(status[0]) : undefined;
  const statusExact = status !== undefined && statusClass === undefined ? Number(status) : undefined;
  const prefix = route?.endsWith('*') ? route.slice(0, -1) : undefined;
  const upper = method?.toUpperCase();
  return (r) =>
    (statusClass === undefined || (r.status !== null && Math.floor(r.status / 100) === statusClass)) &&
    (statusExact === undefined || r.status === statusExact) &&
    (route === undefined ||
      (route === 'none' ? r.routeId === null : prefix !== undefined ? (r.routeId ?? '').startsWith(prefix) : r.routeId === route)) &&
    (path === undefined || r.path.includes(path)) &&
    (upper === undefined || r.method === upper) &&
    (team_id === undefined || r.teamId === team_id);
}

/** Whether a record comes after `since`: a request id (`req_12`) or an ISO sandbox time. */
function sinceTest(since: string | undefined): ((r: RequestRecord) => boolean) | undefined {
  if (since === undefined) return undefined;
  if (SINCE_FILTER.test(since)) {
    const seq = Number(since.slice(4));
    return (r) => r.seq > seq;
  }
  const at = Date.parse(since);
  return (r) => r.at >= at;
}

/** A page of the journal as the wire declares it: requests, the ring's size, recorded since start, bodies kept. */
export type RequestPage = z.input<typeof W.RequestPage>;

/** The journal's requests matching the filter, newest first. */
export function listRequests(world: World, filter: RequestFilter): RequestPage {
  const journal = journalOf(world);
  if (!journal) return { requests: [], size: 0, recorded: 0, bodies: false };
  const limit = filter.limit ?? 100;
  const match = matcher(filter);
  const after = sinceTest(filter.since);
  const only = filter.id === undefined ? undefined : Number(filter.id.slice(4));
  const requests: RequestView[] = [];
  // Bodies rendered so far: past READ_BODY_BUDGET older entries come without theirs (a read stays short).
  let rendered = 0;
  for (const r of journal.newestFirst()) {
    if (only !== undefined) {
      if (r.seq > only) continue;
      if (r.seq < only) break;
    }
    if (after && !after(r)) {
      // Ids only grow; sandbox time goes back at a reset, so a time bound reads on.
      if (filter.since?.startsWith('req_')) break;
      continue;
    }
    if (!match(r)) continue;
    const bytes = viewBodyBytes(r);
    const omit = bytes > 0 && rendered + bytes > READ_BODY_BUDGET && rendered > 0;
    if (!omit) rendered += bytes;
    requests.push(requestView(r, omit));
    if (requests.length >= limit) break;
  }
  return { requests, size: journal.size, recorded: journal.recorded, bodies: journal.bodies };
}
