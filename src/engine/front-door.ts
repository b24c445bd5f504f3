/**
 * The front door (design.md rules 12 and 17): every adapter (node:http, express, msw, the fetch
 * handler) hands it what the transport knows of a request, and it computes the canonical path
 * once and makes every network decision on it, in one place: which surface the path is under,
 * the body limit, the `Host` lines, the control plane's guard (host, origin, admin token) and
 * CORS. It answers early (a refusal, a CORS preflight) or hands back the prepared request, whose
 * canonical path is recorded so nothing after it (the sandbox, dispatch) computes it again.
 */
import { canonicalPath, settledPath, underPrefix } from './canonical-path.js';
import { GUARD_MESSAGES, type GuardContext, guardRequest, type NetworkOptions, withCors } from './guard.js';
import type { SimRequest, SimResponse, Surface } from './http-types.js';
import { bodyTooLarge, LIMITS } from './limits.js';
import { splitQuery } from './query.js';
import { detailResponse } from './render.js';

/** Where a surface is served: a canonical path prefix, on one origin or (absent) on any. */
export interface Mount {
  surface: Surface;
  origin?: string;
  prefix: string;
}

/** The network a door faces: its options and the guard's view of the sandbox. */
export interface DoorNetwork {
  options: NetworkOptions;
  context: GuardContext;
}

/**
 * One adapter's door: its mounts (tried in order; a path under none is served whole on the data
 * surface) and, for a server reachable over the network, the network it faces. A door inside the
 * page (msw, the fetch handler) has no network: no body limit of its own, no guard, no CORS.
 */
export interface Door {
  mounts: readonly Mount[];
  network?: DoorNetwork;
}

/** What the transport knows of a request before the engine reads it. */
export interface DoorRequest {
  method: string;
  /** The URL's origin, when the transport knows it (msw): mounts bound to an origin match only it. */
  origin?: string;
  /** The path as sent, without query. */
  path: string;
  /** The query string without `?`, absent when the URL had none. */
  query: string | undefined;
  headers: Record<string, string>;
  rawBody: Uint8Array;
  /**
   * Why the head's `Host` lines are refused (node: none on HTTP/1.1, or more than one), as the
   * transport counted them: a `GUARD_MESSAGES` key, absent when they are fine.
   */
  hostLines?: 'missingHost' | 'duplicateHost';
}

/** The door's verdict: an answer now (`close`: the connection closes after it) or the request to dispatch. */
export type Entry = { answer: SimResponse; close: boolean; request: SimRequest } | { answer: undefined; request: SimRequest };

/** Makes the request and decides at the door, on the one canonical path. */
export function frontDoor(door: Door, raw: DoorRequest): Entry {
  const canonical = canonicalPath(raw.path);
  let surface: Surface = 'data';
  let path = canonical.ok ? canonical.path : raw.path;
  if (canonical.ok) {
    for (const m of door.mounts) {
      const under = m.origin === undefined || m.origin === raw.origin ? underPrefix(canonical.path, m.prefix) : undefined;
      if (under === undefined) continue;
      surface = m.surface;
      path = under;
      break;
    }
  }
  const query = raw.query === undefined ? {} : splitQuery(raw.query);
  const request = settledPath({ method: raw.method, surface, path, query, headers: raw.headers, rawBody: raw.rawBody }, canonical);
  const network = door.network;
  if (network === undefined) return { answer: undefined, request };
  const { options } = network;
  if (raw.rawBody.byteLength > LIMITS.bodyBytes) return { answer: withCors(bodyTooLarge(), request, options), close: true, request };
  if (raw.hostLines !== undefined)
    return { answer: withCors(detailResponse(400, GUARD_MESSAGES[raw.hostLines]), request, options), close: true, request };
  // A path with no canonical form goes on to the engine, which answers 400 before routing.
  const refused = canonical.ok ? guardRequest(request, options, network.context) : undefined;
  if (refused !== undefined) return { answer: leaving(door, request, refused), close: false, request };
  return { answer: undefined, request };
}

/** An answer on its way out of the door: with CORS headers when the request's origin is allowed. */
export function leaving(door: Door, request: SimRequest, response: SimResponse): SimResponse {
  const options = door.network?.options;
  return options === undefined || options.cors === undefined ? response : withCors(response, request, options);
}
