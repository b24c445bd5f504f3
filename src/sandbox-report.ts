/**
 * The integration report's count of each answered API request (issue 46): dispatch's `observe`
 * seam, read here and told to the world's counters (src/state/sandbox/report-counters.ts) as
 * plain values. A few Map increments per request, never a scan.
 */
import type { Exchange } from './engine/dispatch.js';
import { MALFORMED_BODY } from './engine/faults.js';
import type { SimRequest, SimResponse } from './engine/http-types.js';
import type { World } from './engine/world.js';
import { countAnswer, isApiRoute } from './state/sandbox/report-counters.js';

const MALFORMED_BYTES = new TextEncoder().encode(MALFORMED_BODY).byteLength;

/** The kind of fault that answered: a dropped connection, a late answer, a cut body, or a status. */
function faultKind(res: SimResponse, exchange: Exchange): string {
  if (res.drop === true) return 'drop';
  if (exchange.delayMs !== undefined) return 'latency';
  if (res.status === 200 && res.body.byteLength === MALFORMED_BYTES) return 'malformed';
  return 'status';
}

/** Counts one answered request of the API (control-plane, docs and receiver requests are not counted). */
export function countRequest(world: World, req: SimRequest, res: SimResponse, exchange: Exchange): void {
  const route = exchange.route;
  if (route === undefined ? req.path.startsWith('/_sandbox/') : !isApiRoute(route)) return;
  const kind = exchange.faultId === undefined ? null : faultKind(res, exchange);
  countAnswer(world, route?.id ?? null, res.drop === true ? 'dropped' : res.status, kind);
}
