/**
 * The request journal as read: records rendered for the wire (`GET /_sandbox/requests`, the
 * terminal log, the inspector) with every key masked to a short prefix: the key headers
 * (`x-vital-api-key`, `x-service-api-key`, `X-Management-Key`, `X-Vital-Org-Key`,
 * `X-Service-Org-Key`, `Authorization`), and inside JSON bodies every value under a key-like name
 * (`secret`, `token`, `password`, `*_key`, `api_keys`, ...) or shaped like a key (`sk_...`,
 * `pk_...`, `whsec_...`). Text bodies are decoded as UTF-8; binary ones are described, not shown.
 */
import { BODY_CAP, type RequestRecord } from './journal.js';

const MASKED_HEADERS = new Set([
  'x-vital-api-key',
  'x-service-api-key',
  'x-management-key',
  'x-vital-org-key',
  'x-service-org-key',
  'authorization',
  'cookie',
]);
const SECRET_NAME = /secret|token|password|passphrase|api_?keys?$|_key$|^key$|authorization|credential/i;
const SECRET_VALUE = /^(?:sk_|pk_|whsec_|Bearer\s)/;
const TEXT_TYPE = /json|text|xml|urlencoded|yaml|csv|html|javascript/i;
const decoder = new TextDecoder('utf-8');

/** A secret cut to a short prefix: `sk_us_ab…` (`Bearer ab…` keeps its scheme). */
function mask(value: string): string {
  const scheme = /^(Bearer|Basic)\s+/i.exec(value);
  if (scheme) return `${scheme[0]}${mask(value.slice(scheme[0].length))}`;
  if (value.length <= 4) return '***';
  return `${value.slice(0, Math.min(8, Math.floor(value.length / 3)))}***`;
}

function maskHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) out[name] = MASKED_HEADERS.has(name.toLowerCase()) ? mask(value) : value;
  return out;
}

/** A JSON value with the values of secret-named keys (and key-shaped strings) masked. */
function maskJson(value: unknown, secret = false): unknown {
  if (typeof value === 'string') return secret || SECRET_VALUE.test(value) ? mask(value) : value;
  if (Array.isArray(value)) return value.map((v) => maskJson(v, secret));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskJson(v, secret || SECRET_NAME.test(k));
    return out;
  }
  return value;
}

/** `a=1&secret=…`: form and query pairs with secret-named values masked. */
function maskPairs(text: string): string {
  return text.replace(/([^&=\s]+)=([^&\s]*)/g, (all, name: string, value: string) =>
    SECRET_NAME.test(name) || SECRET_VALUE.test(value) ? `${name}=${mask(value)}` : all,
  );
}

/** A kept body as text (masked), or null when none was kept or it is binary. */
function bodyText(bytes: Uint8Array | undefined, contentType: string | null | undefined): string | null {
  if (!bytes) return null;
  if (contentType && !TEXT_TYPE.test(contentType)) return null;
  const text = decoder.decode(bytes);
  if (bytes.byteLength < BODY_CAP) {
    try {
      return JSON.stringify(maskJson(JSON.parse(text)));
    } catch {
      // not JSON: masked as pairs below
    }
  }
  return maskPairs(text);
}

export function queryText(query: Record<string, string[]>): string {
  const pairs: string[] = [];
  for (const [name, values] of Object.entries(query)) for (const v of values) pairs.push(`${name}=${v}`);
  return maskPairs(pairs.join('&'));
}

const iso = (ms: number) => new Date(ms).toISOString();

/** One record as `GET /_sandbox/requests` answers it (`RequestEntry` in src/wire/sandbox.ts). */
export function requestView(r: RequestRecord) {
  return {
    id: `req_${r.seq}`,
    seq: r.seq,
    sandbox_time: iso(r.at),
    wall_time: iso(r.wallAt),
    duration_ms: Math.round(r.durationMs * 1000) / 1000,
    method: r.method,
    surface: r.surface,
    path: r.path,
    query: queryText(r.query),
    route_id: r.routeId,
    team_id: r.teamId,
    environment: r.environment,
    status: r.status,
    fault_id: r.faultId,
    invalid: r.invalid,
    near_misses: r.nearMisses,
    request: {
      headers: maskHeaders(r.headers),
      content_type: r.headers['content-type'] ?? null,
      body: bodyText(r.requestBody, r.headers['content-type']),
      body_bytes: r.requestBytes,
    },
    response: {
      content_type: r.responseType,
      body: bodyText(r.responseBody, r.responseType),
      body_bytes: r.responseBytes,
    },
  };
}

export type RequestView = ReturnType<typeof requestView>;
