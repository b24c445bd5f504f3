/** The receiver certification (`POST /_sandbox/receivers/certify`) and the integration report (`GET /_sandbox/report`). */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';

const count = () => z.number().int();
const statusCounts = () => z.record(z.string(), count()).describe('HTTP status -> answers ("dropped": connections closed with no answer)');

export const CertifyResultView = lazySchema(() =>
  z.object({
    url: z.string(),
    passed: z.boolean(),
    failed: z.array(z.string()).describe('The ids of the failed checks'),
    checks: z.array(
      z.object({
        id: z.string(),
        description: z.string(),
        passed: z.boolean(),
        sent: z.array(z.object({ headers: z.record(z.string(), z.string()), body: z.string() })),
        received: z.array(
          z.object({ status: z.number().int().nullable(), body: z.string().nullable(), error: z.string().nullable(), ms: count() }),
        ),
        detail: z.string(),
      }),
    ),
    timing: z.object({ p50_ms: count(), max_ms: count(), timeout_ms: count() }),
    note: z.string(),
  }),
);

export const IntegrationReport = lazySchema(() =>
  z.object({
    since: z.string().describe('The sandbox time of the last reset (the world began)'),
    now: z.string(),
    requests: count(),
    routes_called: z.array(
      z.object({ route_id: z.string(), method: z.string(), path: z.string(), count: count(), statuses: statusCounts(), faulted: count() }),
    ),
    routes_never_called: z.array(z.object({ route_id: z.string(), method: z.string(), path: z.string() })),
    unmatched_requests: count().describe('Requests no route matched'),
    error_statuses: statusCounts().describe('Error answers the client received (4xx, 5xx, dropped), fault answers included'),
    webhooks: z.array(
      z.object({
        endpoint_id: z.string(),
        url: z.string(),
        event_types: z.record(z.string(), z.object({ delivered: count(), acknowledged: count() })),
        retries_survived: count().describe('Messages acknowledged after at least one failed attempt'),
        failed_messages: count(),
      }),
    ),
    lab_orders: z.object({ statuses: z.array(z.string()), low_level_statuses: z.array(z.string()) }),
    fault_kinds: z.array(z.string()),
    providers_connected: z.array(z.string()),
  }),
);
