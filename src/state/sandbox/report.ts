/**
 * The integration report (`GET /_sandbox/report`, issue 46): what the client's code exercised in
 * this world since the last reset, against what the service offers. Built when asked from the
 * counters kept while the world ran (`report-counters.ts`) and, for lab orders and connections,
 * from the world's state (one pass at report time). Stable field names (docs/testing.md).
 */
import type { z } from 'zod';
import type { World } from '../../engine/world.js';
import { ordersOf } from '../labs/order-store.js';
import { highLevel } from '../labs/order-lifecycle.js';
import { currentConnections, wearablesOf } from '../wearables/connections.js';
import type { IntegrationReport } from '../../wire/certify-report.js';
import { isApiRoute, reportCountersOf, type RouteLike } from './report-counters.js';

type Report = z.input<typeof IntegrationReport>;

const byKey = <T>(map: Map<string, T>): Array<[string, T]> => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
const sortedObject = (map: Map<string, number>): Record<string, number> => Object.fromEntries(byKey(map));

function labStatuses(world: World): Report['lab_orders'] {
  const high = new Set<string>();
  const low = new Set<string>();
  for (const partition of world.tenancy.allPartitions()) {
    for (const order of ordersOf({ world, partition }).all()) {
      for (const e of order.events) {
        low.add(e.status);
        high.add(highLevel(order.method, e.status));
      }
    }
  }
  return { statuses: [...high].sort(), low_level_statuses: [...low].sort() };
}

function providers(world: World): string[] {
  const out = new Set<string>();
  for (const rec of wearablesOf(world).ring) {
    if (rec.gone) continue;
    for (const conn of currentConnections(rec)) out.add(conn.provider.slug);
  }
  return [...out].sort();
}

/** The report of `world`; `routes`: the route table (what the service offers). */
export function integrationReport(world: World, routes: readonly RouteLike[]): Report {
  const c = reportCountersOf(world);
  const api = routes.filter(isApiRoute);
  const called: Report['routes_called'] = [];
  const never: Report['routes_never_called'] = [];
  for (const r of api) {
    const count = c.routes.get(r.id);
    if (count === undefined) never.push({ route_id: r.id, method: r.method, path: r.path });
    else
      called.push({
        route_id: r.id,
        method: r.method,
        path: r.path,
        count: count.count,
        statuses: sortedObject(count.statuses),
        faulted: count.faulted,
      });
  }
  called.sort((a, b) => b.count - a.count || (a.route_id < b.route_id ? -1 : 1));
  never.sort((a, b) => (a.route_id < b.route_id ? -1 : 1));
  return {
    since: new Date(c.since).toISOString(),
    now: world.clock.iso(),
    requests: c.requests,
    routes_called: called,
    routes_never_called: never,
    unmatched_requests: c.unmatched,
    error_statuses: sortedObject(c.errors),
    webhooks: byKey(c.endpoints).map(([id, ep]) => ({
      endpoint_id: id,
      url: ep.url,
      event_types: Object.fromEntries(byKey(ep.types).map(([t, n]) => [t, { delivered: n.delivered, acknowledged: n.acknowledged }])),
      retries_survived: ep.retriesSurvived,
      failed_messages: ep.failedMessages,
    })),
    lab_orders: labStatuses(world),
    fault_kinds: [...c.faultKinds].sort(),
    providers_connected: providers(world),
  };
}

const cell = (s: string): string => s.replace(/\|/g, '\\|');
const statuses = (m: Record<string, number>): string =>
  Object.entries(m)
    .map(([s, n]) => `${s}×${n}`)
    .join(', ');

/** The report in markdown (a CI job summary). */
export function reportMarkdown(r: Report): string {
  const lines = [`# Integration report`, '', `Since ${r.since} (sandbox time ${r.now}): ${r.requests} API requests.`, ''];
  lines.push(`## Routes called (${r.routes_called.length} of ${r.routes_called.length + r.routes_never_called.length})`, '');
  lines.push('| Route | Method | Path | Calls | Statuses | Faulted |', '|---|---|---|---|---|---|');
  for (const x of r.routes_called)
    lines.push(`| ${cell(x.route_id)} | ${x.method} | ${cell(x.path)} | ${x.count} | ${statuses(x.statuses)} | ${x.faulted} |`);
  lines.push('', '## Error statuses received', '');
  lines.push(Object.keys(r.error_statuses).length === 0 ? 'None.' : statuses(r.error_statuses));
  lines.push('', '## Webhooks', '');
  if (r.webhooks.length === 0) lines.push('No deliveries.');
  for (const ep of r.webhooks) {
    lines.push(`- ${ep.endpoint_id} (${ep.url}): ${ep.retries_survived} retries survived, ${ep.failed_messages} messages failed`);
    for (const [t, n] of Object.entries(ep.event_types)) lines.push(`  - ${t}: ${n.delivered} delivered, ${n.acknowledged} acknowledged`);
  }
  lines.push('', '## Lab orders', '');
  lines.push(`Statuses: ${r.lab_orders.statuses.join(', ') || 'none'}`, '');
  lines.push(`Low-level statuses: ${r.lab_orders.low_level_statuses.join(', ') || 'none'}`);
  lines.push('', '## Faults used', '', r.fault_kinds.join(', ') || 'None.');
  lines.push('', '## Providers connected', '', r.providers_connected.join(', ') || 'None.');
  lines.push('', `## Routes never called (${r.routes_never_called.length})`, '');
  for (const x of r.routes_never_called) lines.push(`- ${cell(x.route_id)}: ${x.method} ${cell(x.path)}`);
  return `${lines.join('\n')}\n`;
}
