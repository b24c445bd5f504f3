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

/** What a record is made of (all but what it works out or lets go later). */
type RecordFields = Omit<RequestRecord, 'nearMisses' | 'bodiesDropped' | 'requestBody' | 'responseBody'>;

/** A record as the ring holds it: near misses are worked out from the route table when first read. */
export class JournalRecord implements RequestRecord {
  readonly seq: number;
  readonly at: number;
  readonly wallAt: number;
  durationMs: number;
  readonly method: string;
  readonly surface: string;
  readonly path: string;
  readonly query: Record<string, string[]>;
  readonly routeId: string | null;
  readonly teamId: string | null;
  readonly environment: string | null;
  readonly status: number | null;
  readonly dropped: boolean;
  readonly headers: Record<string, string>;
  readonly responseType: string | null;
  requestBody?: Uint8Array;
  readonly requestBytes: number;
  responseBody?: Uint8Array;
  readonly responseBytes: number;
  bodiesDropped = false;
  readonly invalid: Array<Array<string | number>> | null;
  readonly faultId: string | null;
  readonly fault: FaultApplied | null;
  private misses: NearMiss[] | null | undefined;

  constructor(
    f: RecordFields,
    /** The route table to find near misses in; undefined when the request matched a route. */
    private readonly routes: readonly Route[] | undefined,
  ) {
    this.seq = f.seq;
    this.at = f.at;
    this.wallAt = f.wallAt;
    this.durationMs = f.durationMs;
    this.method = f.method;
    this.surface = f.surface;
    this.path = f.path;
    this.query = f.query;
    this.routeId = f.routeId;
    this.teamId = f.teamId;
    this.environment = f.environment;
    this.status = f.status;
    this.dropped = f.dropped;
    this.headers = f.headers;
    this.responseType = f.responseType;
    this.requestBytes = f.requestBytes;
    this.responseBytes = f.responseBytes;
    this.invalid = f.invalid;
    this.faultId = f.faultId;
    this.fault = f.fault;
    this.misses = routes === undefined ? null : undefined;
  }

  get nearMisses(): NearMiss[] | null {
    if (this.misses === undefined) this.misses = nearMisses(this.routes ?? [], this.surface, this.method, this.path);
    return this.misses;
  }
}
