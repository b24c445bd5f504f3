/**
 * Every bound on a request, checked in the engine before routing so that every adapter answers
 * an oversized or malformed request with the same bytes (docs/simulated/engine.md lists them):
 * body size (413), header and query-string size (431), content encoding (415), JSON nesting
 * depth (422).
 */
import type { SimRequest, SimResponse } from './http-types.js';
import { detailResponse } from './render.js';

export const LIMITS = {
  /** Largest request body, bytes. Adapters stop reading one byte past it. */
  bodyBytes: 10 * 1024 * 1024,
  /** Largest request target (path and query) plus header names and values, bytes. */
  headerBytes: 16 * 1024,
  /** Size at which an HTTP server's parser gives up on the head (the node:http adapter's maxHeaderSize). */
  transportHeaderBytes: 64 * 1024,
  /** Deepest JSON nesting (arrays and objects) accepted in a body. */
  jsonDepth: 64,
  /** Depth to which a rejected input is echoed in a 422 (deeper parts read `"..."`). */
  echoDepth: 32,
  /** Longest string echoed in a 422 before it is cut. */
  echoString: 4096,
  /** Most array items or object keys echoed in a 422. */
  echoItems: 1000,
} as const;

export const LIMIT_MESSAGES = {
  bodyTooLarge: `Request body is larger than ${LIMITS.bodyBytes} bytes`,
  headersTooLarge: `Request headers and query string are larger than ${LIMITS.headerBytes} bytes`,
  unsupportedEncoding: 'Unsupported Content-Encoding: send the body uncompressed',
  tooDeep: `JSON nested deeper than ${LIMITS.jsonDepth} levels`,
} as const;

/** The answer for a body over the limit. */
export const bodyTooLarge = (): SimResponse => detailResponse(413, LIMIT_MESSAGES.bodyTooLarge);
/** The answer for a head (request target and headers) over the limit. */
export const headersTooLarge = (): SimResponse => detailResponse(431, LIMIT_MESSAGES.headersTooLarge);

/** Byte length of a string in UTF-8, without allocating. */
function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** Size of the request head as the engine counts it: path, query and header names and values. */
function headBytes(req: SimRequest): number {
  let n = utf8Length(req.path);
  for (const key in req.query) {
    const values = req.query[key] as string[];
    for (const v of values) n += utf8Length(key) + utf8Length(v) + 2;
  }
  for (const name in req.headers) n += name.length + utf8Length(req.headers[name] as string) + 4;
  return n;
}

/**
 * Whether the head is surely within `LIMITS.headerBytes` from its UTF-16 length alone (a code
 * unit is at most 3 UTF-8 bytes): most heads are, and then no byte is counted.
 */
function surelySmall(req: SimRequest): boolean {
  let units = req.path.length;
  for (const key in req.query) {
    const values = req.query[key] as string[];
    for (const v of values) units += key.length + v.length + 2;
  }
  for (const name in req.headers) units += name.length + (req.headers[name] as string).length + 4;
  return units * 3 <= LIMITS.headerBytes;
}

/** Checks the bounds that do not depend on the route; an answer means "stop here". */
export function checkLimits(req: SimRequest): SimResponse | undefined {
  if (!surelySmall(req) && headBytes(req) > LIMITS.headerBytes) return headersTooLarge();
  if (req.rawBody.byteLength > LIMITS.bodyBytes) return bodyTooLarge();
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.trim() !== '' && encoding.trim().toLowerCase() !== 'identity') {
    return detailResponse(415, LIMIT_MESSAGES.unsupportedEncoding);
  }
  return undefined;
}

/**
 * Deepest nesting of arrays and objects in a JSON text (strings skipped), stopping as soon as
 * it passes `limit`. Linear, no recursion: safe on any input.
 */
export function jsonDepthExceeds(text: string, limit: number = LIMITS.jsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92)
        i++; // backslash: skip the escaped char
      else if (c === 34) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > limit) return true;
    } else if (c === 93 || c === 125) depth--;
  }
  return false;
}

/** A bounded copy of a value for a 422 echo: depth, string length and item counts cut. */
export function truncateEcho(value: unknown, depth: number = LIMITS.echoDepth): unknown {
  if (typeof value === 'string') return value.length > LIMITS.echoString ? `${value.slice(0, LIMITS.echoString)}...` : value;
  if (value === null || typeof value !== 'object') return value;
  if (depth <= 0) return Array.isArray(value) ? ['...'] : { '...': '...' };
  if (Array.isArray(value)) {
    const out = value.slice(0, LIMITS.echoItems).map((v) => truncateEcho(v, depth - 1));
    if (value.length > LIMITS.echoItems) out.push('...');
    return out;
  }
  const out = Object.create(null) as Record<string, unknown>;
  let n = 0;
  for (const key of Object.keys(value)) {
    if (n++ >= LIMITS.echoItems) {
      out['...'] = '...';
      break;
    }
    out[key] = truncateEcho((value as Record<string, unknown>)[key], depth - 1);
  }
  return out;
}
