/**
 * A journal entry as a request again: the `curl` command that sends it (Copy as curl) and the
 * `fetch` arguments of Replay. The journal masks keys; both put back the sandbox's own key of the
 * entry's team environment (or the org's management key) when the page knows it, and say
 * `<masked>` otherwise. Bodies are the kept ones (secrets inside them stay masked).
 */
import type { Credentials, JournalRequest } from './types.js';

/** Headers a client does not choose (transport, browser, the inspector's own marker). */
const SKIP = new Set([
  'host',
  'connection',
  'content-length',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'origin',
  'referer',
  'cookie',
  'x-sandbox-inspector',
  'transfer-encoding',
  'keep-alive',
]);
const TEAM_KEYS = new Set(['x-vital-api-key', 'x-service-api-key']);
const ORG_KEYS = new Set(['x-management-key', 'x-vital-org-key', 'x-service-org-key']);

export interface ReplayRequest {
  method: string;
  /** Relative to the page's origin. */
  url: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function keyFor(name: string, r: JournalRequest, creds: Credentials | null): string | undefined {
  if (!creds) return undefined;
  if (TEAM_KEYS.has(name)) {
    const team = creds.teams.find((t) => t.team_id === r.team_id);
    const env = r.environment === 'production' ? 'production' : 'sandbox';
    return team?.api_keys[env];
  }
  if (ORG_KEYS.has(name)) return creds.management_key;
  return undefined;
}

/** The headers to send again, with masked keys put back where known. */
function replayHeaders(r: JournalRequest, creds: Credentials | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [rawName, value] of Object.entries(r.request.headers ?? {})) {
    const name = rawName.toLowerCase();
    if (SKIP.has(name) || name.startsWith('sec-')) continue;
    if (name === 'authorization') continue;
    if (TEAM_KEYS.has(name) || ORG_KEYS.has(name) || value.endsWith('***')) {
      out[name] = keyFor(name, r, creds) ?? '<masked>';
      continue;
    }
    out[name] = value;
  }
  return out;
}

/** The path (with query) as the journal saw it, with the management surface's prefix. */
export function pathWithQuery(r: Pick<JournalRequest, 'path' | 'query' | 'surface'>, managementPrefix = '/management'): string {
  return `${r.surface === 'management' ? managementPrefix : ''}${r.path}${r.query ? `?${r.query}` : ''}`;
}

function managementPrefix(creds: Credentials | null): string {
  if (!creds) return '/management';
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/]+(\/[^?#]*)?/i.exec(creds.management_url);
  return (m?.[1] ?? '').replace(/\/+$/, '');
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The curl command of a journal entry, one option per line. */
export function curlOf(r: JournalRequest, creds: Credentials | null): string {
  const base = creds ? (r.surface === 'management' ? creds.management_url : creds.base_url).replace(/\/+$/, '') : '';
  const url = `${base}${pathWithQuery({ ...r, surface: 'data' })}`;
  const parts = [`curl -X ${r.method} ${quote(url)}`];
  for (const [name, value] of Object.entries(replayHeaders(r, creds))) parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (r.request.body !== null && r.request.body !== '') parts.push(`--data-raw ${quote(r.request.body)}`);
  else if (r.request.body_bytes > 0) parts.push('# (the body was not kept: start with --request-log-bodies to keep every body)');
  return parts.join(' \\\n  ');
}

/** What Replay sends (relative URL; the page is served by the sandbox). */
export function replayOf(r: JournalRequest, creds: Credentials | null): ReplayRequest {
  const body = r.request.body !== null && r.request.body !== '' && r.method !== 'GET' && r.method !== 'HEAD' ? r.request.body : undefined;
  return { method: r.method, url: pathWithQuery(r, managementPrefix(creds)), headers: replayHeaders(r, creds), body };
}
