/**
 * The request journal as read: records rendered for the wire (`GET /_sandbox/requests`, the
 * terminal log, the inspector) with every key masked to a short prefix: the key headers
 * (`x-vital-api-key`, `x-service-api-key`, `X-Management-Key`, `X-Vital-Org-Key`,
 * `X-Service-Org-Key`, `Authorization`), and inside JSON bodies every value under a key-like name
 * (`secret`, `token`, `password`, `*_key`, `api_keys`, ...) or shaped like a key (`sk_...`,
 * `pk_...`, `mg_...`, `vat_...`, `whsec_...`). Text bodies are decoded as UTF-8; binary ones are
 * described, not shown. A body that is not JSON is masked as `name=value` pairs and key-shaped
 * words by hand-written scanners: every step is linear in the kept body (at most BODY_CAP bytes),
 * so no body, however made, can make a read backtrack (issue 40).
 */
import { BODY_CAP, type RequestRecord } from './journal.js';
import { describeFault, type FaultApplied } from './fault-applied.js';

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
/** The prefixes of the keys the sandbox issues: team keys, management keys, team access tokens, signing secrets. */
const KEY_PREFIXES = ['sk_', 'pk_', 'mg_', 'vat_', 'whsec_'] as const;
const SECRET_VALUE = /^(?:sk_|pk_|mg_|vat_|whsec_|Bearer\s)/;
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

/** Whether a character separates `name=value` pairs (`&` or white space, as `\s` reads it). */
function isSeparator(code: number): boolean {
  return (
    code === 38 ||
    code === 32 ||
    (code >= 9 && code <= 13) ||
    code === 160 ||
    code === 0xfeff ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x1680 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/**
 * `a=1&secret=…`: form and query pairs with secret-named values masked. One pass over the text:
 * each word between separators is looked at once; in a word, the name runs from its first
 * character that is not `=` to the next `=`, the value is the rest of the word (what the regular
 * expression `([^&=\s]+)=([^&\s]*)` matched, without its quadratic backtracking on a long word
 * with no `=`).
 */
export function maskPairs(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (isSeparator(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    let eq = -1;
    let start = -1;
    while (end < n && !isSeparator(text.charCodeAt(end))) {
      const code = text.charCodeAt(end);
      if (code === 61) {
        if (start >= 0 && eq < 0) eq = end;
      } else if (start < 0) start = end;
      end++;
    }
    if (start >= 0 && eq > start) {
      const name = text.slice(start, eq);
      const value = text.slice(eq + 1, end);
      if (SECRET_NAME.test(name) || SECRET_VALUE.test(value)) {
        out += `${text.slice(copied, eq + 1)}${mask(value)}`;
        copied = end;
      }
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

/** Whether a character can be part of a key (`[A-Za-z0-9_-]`). */
function isKeyChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45;
}

/**
 * Every word shaped like a key (`sk_...`, `mg_...`, `whsec_...`) masked, wherever it stands in a
 * text that is not JSON (an error page, a cut JSON body): one pass, each word looked at once.
 */
export function maskKeyWords(text: string): string {
  let out = '';
  let copied = 0;
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (!isKeyChar(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i;
    while (end < n && isKeyChar(text.charCodeAt(end))) end++;
    const prefix = KEY_PREFIXES.find((p) => text.startsWith(p, i));
    // A word already masked (`sk_us_ab***`, by the pairs before) is left as it is.
    if (prefix !== undefined && end - i > prefix.length && text.charCodeAt(end) !== 42) {
      out += `${text.slice(copied, i)}${mask(text.slice(i, end))}`;
      copied = end;
    }
    i = end;
  }
  return copied === 0 ? text : out + text.slice(copied);
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
  return maskKeyWords(maskPairs(text));
}

export function queryText(query: Record<string, string[]>): string {
  const pairs: string[] = [];
  for (const [name, values] of Object.entries(query)) for (const v of values) pairs.push(`${name}=${v}`);
  return maskPairs(pairs.join('&'));
}

const iso = (ms: number) => new Date(ms).toISOString();

/** What a fault did, as the journal answers it (readable after its rule retired: the rule is described from its own match and action). */
function faultView(f: FaultApplied) {
  return {
    id: f.id,
    rule: describeFault(f.match, f.action),
    action: f.kind,
    status: f.kind === 'status' ? (f.action.status ?? null) : f.kind === 'malformed' ? 200 : null,
    latency_ms: f.kind !== 'latency' ? null : f.waitedMs === undefined ? null : Math.round(f.waitedMs * 1000) / 1000,
    planned_latency_ms: f.kind === 'latency' ? (f.plannedMs ?? 0) : null,
  };
}

/**
 * Bytes of bodies one read renders (masked, decoded, serialised): past them a read's older entries
 * come without their bodies (`body_omitted`; read them with `since` or a smaller `limit`), so no
 * read of the journal blocks the event loop for long, whatever it holds.
 */
export const READ_BODY_BUDGET = 256 * 1024;

/** Bytes of kept bodies a record's view would render. */
export function viewBodyBytes(r: RequestRecord): number {
  return (r.requestBody?.byteLength ?? 0) + (r.responseBody?.byteLength ?? 0);
}

/** One record as `GET /_sandbox/requests` answers it (`RequestEntry` in src/wire/sandbox.ts); without its bodies when `omitBodies`. */
export function requestView(r: RequestRecord, omitBodies = false) {
  const omitted = omitBodies && viewBodyBytes(r) > 0;
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
    dropped: r.dropped,
    fault_id: r.faultId,
    fault: r.fault === null ? null : faultView(r.fault),
    invalid: r.invalid,
    near_misses: r.nearMisses,
    request: {
      headers: maskHeaders(r.headers),
      content_type: r.headers['content-type'] ?? null,
      body: omitted ? null : bodyText(r.requestBody, r.headers['content-type']),
      body_bytes: r.requestBytes,
      body_dropped: r.bodiesDropped && r.requestBytes > 0,
      body_omitted: omitted && r.requestBody !== undefined,
    },
    response: {
      content_type: r.responseType,
      body: omitted ? null : bodyText(r.responseBody, r.responseType),
      body_bytes: r.responseBytes,
      body_dropped: r.bodiesDropped && r.responseBytes > 0,
      body_omitted: omitted && r.responseBody !== undefined,
    },
  };
}

export type RequestView = ReturnType<typeof requestView>;
