/**
 * The terminal log of the CLI (`--log pretty|json|off`): one line per request the journal
 * records, on stderr. `pretty` for a person (sandbox date and time, method, path, status,
 * duration, team, route; a 404's near misses and a 422's fields on the next line), `json` one
 * JSON object per line for CI. Keys in the query are masked as in the journal; headers and bodies
 * are never printed. In `pretty`, deliveries to the sandbox's own test receivers
 * (`POST /_sandbox/receiver/:name`, thousands in a long advance) are summed up in one line per
 * receiver, written before the next other request (the advance's own line) or at `flush()`.
 */
import type { RequestRecord } from '../engine/journal.js';
import { queryText } from '../engine/journal-view.js';

type LogMode = 'pretty' | 'json' | 'off';

const COLORS = { red: 31, yellow: 33, green: 32, cyan: 36, dim: 2 } as const;

function paint(on: boolean, color: keyof typeof COLORS, text: string): string {
  return on ? `\u001b[${COLORS[color]}m${text}\u001b[0m` : text;
}

const pathOf = (r: RequestRecord) => {
  for (const _ in r.query) {
    const query = queryText(r.query);
    return query ? `${r.path}?${query}` : r.path;
  }
  return r.path;
};

/** `YYYY-MM-DD HH:MM:SS` of a sandbox time, formatted once per instant (a manual clock stays on one for many requests). */
let clockAt = Number.NaN;
let clockText = '';
function clockOf(at: number): string {
  if (at !== clockAt) {
    const iso = new Date(at).toISOString();
    clockText = `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
    clockAt = at;
  }
  return clockText;
}

/** One request as a JSON line (no trailing newline). */
export function jsonLine(r: RequestRecord): string {
  return JSON.stringify({
    id: `req_${r.seq}`,
    sandbox_time: new Date(r.at).toISOString(),
    wall_time: new Date(r.wallAt).toISOString(),
    method: r.method,
    surface: r.surface,
    path: pathOf(r),
    status: r.status,
    ...(r.dropped ? { dropped: true } : {}),
    duration_ms: Math.round(r.durationMs * 1000) / 1000,
    route_id: r.routeId,
    team_id: r.teamId,
    environment: r.environment,
    ...(r.invalid ? { invalid: r.invalid } : {}),
    ...(r.nearMisses?.length ? { near_misses: r.nearMisses.map((n) => `${n.method} ${n.path}`) } : {}),
    ...(r.faultId ? { fault_id: r.faultId } : {}),
  });
}

/** One request for a person: `2026-01-05 09:00:00 GET /v2/user 200 1.2 ms team 1a2b3c4d/sandbox users.list`, and a second line for misses. */
export function prettyLine(r: RequestRecord, color = false): string {
  const time = clockOf(r.at);
  const status =
    r.status === null
      ? paint(color, 'red', 'dropped')
      : paint(color, r.status >= 500 ? 'red' : r.status >= 400 ? 'yellow' : 'green', String(r.status));
  const team = r.teamId ? ` team ${r.teamId.slice(0, 8)}/${r.environment ?? ''}` : '';
  const route = paint(color, 'dim', r.routeId ?? 'no route');
  const duration = r.durationMs < 10 ? r.durationMs.toFixed(1) : Math.round(r.durationMs).toString();
  const surface = r.surface === 'management' ? '/management' : '';
  let line = `${paint(color, 'dim', time)} ${r.method} ${surface}${pathOf(r)} ${status} ${duration} ms${team} ${route}`;
  if (r.faultId) line += ` fault ${r.faultId}`;
  if (r.nearMisses?.length) {
    line += `\n    nearly: ${r.nearMisses.map((n) => `${n.method} ${n.surface === 'management' ? '/management' : ''}${n.path} (${n.hint})`).join('; ')}`;
  }
  if (r.invalid?.length) line += `\n    invalid: ${r.invalid.map((loc) => loc.join('.')).join(', ')}`;
  return line;
}

/** The route of a delivery to one of the sandbox's own test receivers. */
const RECEIVER_ROUTE = 'sandbox.receiver.receive';

interface Deliveries {
  count: number;
  first: number;
  last: number;
  /** Answers by status; a dropped connection (a fault rule naming the receiver) counts under 0. */
  statuses: Map<number, number>;
}

/** `2026-01-05 09:00:00 to 2026-01-08 09:00:00: 11,665 deliveries to the test receiver /_sandbox/receiver/hooks (11,600 200, 65 500)`. */
function deliveriesLine(path: string, d: Deliveries, color = false): string {
  const span = d.first === d.last ? clockOf(d.first) : `${clockOf(d.first)} to ${clockOf(d.last)}`;
  const statuses = [...d.statuses]
    .sort((a, b) => a[0] - b[0])
    .map(
      ([status, n]) =>
        `${n.toLocaleString('en')} ${paint(color, status === 0 || status >= 500 ? 'red' : status >= 400 ? 'yellow' : 'green', status === 0 ? 'dropped' : String(status))}`,
    )
    .join(', ');
  const what = d.count === 1 ? 'delivery' : 'deliveries';
  return `${paint(color, 'dim', span)}: ${d.count.toLocaleString('en')} ${what} to the test receiver ${path} (${statuses})`;
}

/** A journal listener; `flush()` writes what it holds back (the pretty log's receiver summaries). */
export type RequestLogListener = ((record: RequestRecord) => void) & { flush(): void };

/** A journal listener writing each request in the given mode (undefined for `off`). */
export function requestLogger(mode: LogMode, write: (line: string) => void, color = false): RequestLogListener | undefined {
  if (mode === 'off') return undefined;
  if (mode === 'json') return Object.assign((r: RequestRecord) => write(`${jsonLine(r)}\n`), { flush: () => undefined });
  const held = new Map<string, Deliveries>();
  const flush = () => {
    for (const [path, d] of held) write(`${deliveriesLine(path, d, color)}\n`);
    held.clear();
  };
  return Object.assign(
    (r: RequestRecord) => {
      if (r.routeId === RECEIVER_ROUTE) {
        const d = held.get(r.path) ?? { count: 0, first: r.at, last: r.at, statuses: new Map<number, number>() };
        d.count++;
        d.last = r.at;
        const status = r.status ?? 0;
        d.statuses.set(status, (d.statuses.get(status) ?? 0) + 1);
        held.set(r.path, d);
        return;
      }
      flush();
      write(`${prettyLine(r, color)}\n`);
    },
    { flush },
  );
}
