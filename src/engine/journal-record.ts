/**
 * One request as the request journal holds it (journal.ts records it, journal-view.ts renders it):
 * numbers and references only; the near misses of a request no route matched are worked out from
 * the route table when the record is first read, never on the request path.
 */
import type { FaultApplied } from './fault-applied.js';
import { nearMisses, type NearMiss } from './journal-near.js';
import type { Route } from './route.js';

/** One recorded request, as held (`journal-view.ts` renders it for the wire). */
export interface RequestRecord {
  seq: number;
  /** Sandbox time and wall time, epoch ms. */
  at: number;
  wallAt: number;
  /** Monotonic ms from arrival to the answer (a fault's latency included, once the adapter waited it). */
  durationMs: number;
  method: string;
  surface: string;
  path: string;
  query: Record<string, string[]>;
  routeId: string | null;
  teamId: string | null;
  environment: string | null;
  /** The status sent; null when a fault dropped the connection (nothing was sent). */
  status: number | null;
  /** A fault closed the connection with no answer. */
  dropped: boolean;
  /** Request headers (a reference; masked when read). */
  headers: Record<string, string>;
  responseType: string | null;
  /** Bodies (errors, or all with `bodies`), at most BODY_CAP bytes each; undefined when not kept. */
  requestBody?: Uint8Array;
  requestBytes: number;
  responseBody?: Uint8Array;
  responseBytes: number;
  /** The bodies were kept, then let go to hold the ring within BODY_BUDGET. */
  bodiesDropped: boolean;
  invalid: Array<Array<string | number>> | null;
  faultId: string | null;
  /** What the fault rule did (its match and action kept, so it reads after the rule retired). */
  fault: FaultApplied | null;
  /** The routes nearly matched by a 404/405 no route matched (computed on first read), else null. */
  readonly nearMisses: NearMiss[] | null;
}

const NO_QUERY: Record<string, string[]> = {};
const NO_HEADERS: Record<string, string> = {};

/**
 * A record as the ring holds it: near misses are worked out from the route table when first read.
 * The journal fills its fields in place (no object per request once the ring is full): a record
 * leaving the ring is filled again with a new request unless it was handed out (`shared`: to a
 * listener, a reader of `newestFirst`, a late answer), when a new one takes its place.
 */
export class JournalRecord implements RequestRecord {
  seq = 0;
  at = 0;
  wallAt = 0;
  durationMs = 0;
  method = '';
  surface = '';
  path = '';
  query = NO_QUERY;
  routeId: string | null = null;
  teamId: string | null = null;
  environment: string | null = null;
  status: number | null = null;
  dropped = false;
  headers = NO_HEADERS;
  responseType: string | null = null;
  requestBody: Uint8Array | undefined = undefined;
  requestBytes = 0;
  responseBody: Uint8Array | undefined = undefined;
  responseBytes = 0;
  bodiesDropped = false;
  invalid: Array<Array<string | number>> | null = null;
  faultId: string | null = null;
  fault: FaultApplied | null = null;
  /** Handed out: someone else may hold it, so it is never filled again. */
  shared = false;
  /** The route table to find near misses in; undefined when the request matched a route. */
  private routes: readonly Route[] | undefined = undefined;
  private misses: NearMiss[] | null | undefined = null;

  /** Sets the route table a 404/405 no route matched finds its near misses in (undefined: none). */
  unmatchedIn(routes: readonly Route[] | undefined): void {
    this.routes = routes;
    this.misses = routes === undefined ? null : undefined;
  }

  get nearMisses(): NearMiss[] | null {
    if (this.misses === undefined) this.misses = nearMisses(this.routes ?? [], this.surface, this.method, this.path);
    return this.misses;
  }
}
