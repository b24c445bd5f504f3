/**
 * The one renderer of engine answers: every JSON body (errors included) is serialised here, so
 * every adapter (express, msw, node:http) writes the same bytes for the same answer.
 */
import type { SimResponse } from './http-types.js';

const encoder = new TextEncoder();
export const JSON_TYPE = 'application/json';
export const EMPTY = new Uint8Array(0);

/** Pooled bytes: small answers are encoded into one shared buffer after the other. */
const POOL_BYTES = 32 * 1024;
/** Texts up to this many UTF-16 units are pooled (3 UTF-8 bytes a unit at most: they always fit). */
const POOLED_UNITS = 4096;
let pool = new Uint8Array(POOL_BYTES);
let used = 0;

/**
 * A value's JSON as UTF-8 bytes. A small one is encoded into a shared pool (a view of it: no
 * buffer of its own per answer, which the garbage collector would have to track and free), as
 * Node's Buffer pools small buffers; so a body's `buffer` may hold other bytes around it: read a
 * body through its own offset and length (every adapter does), and copy one kept long (the
 * journal does).
 */
export function jsonBytes(value: unknown): Uint8Array {
  const text = JSON.stringify(value) as string | undefined;
  if (text === undefined || text.length > POOLED_UNITS) return encoder.encode(text);
  if (pool.length - used < text.length * 3) {
    pool = new Uint8Array(POOL_BYTES);
    used = 0;
  }
  const { written } = encoder.encodeInto(text, used === 0 ? pool : pool.subarray(used));
  const bytes = pool.subarray(used, used + written);
  used += written;
  return bytes;
}

export function jsonResponse(status: number, body: unknown, headers?: Record<string, string>): SimResponse {
  const out: Record<string, string> = headers ? { 'content-type': JSON_TYPE, ...headers } : { 'content-type': JSON_TYPE };
  return { status, headers: out, body: encoder.encode(JSON.stringify(body)) };
}

/** `{"detail": detail}` with `status`. */
export function detailResponse(status: number, detail: unknown, headers?: Record<string, string>): SimResponse {
  return jsonResponse(status, { detail }, headers);
}

/** The bytes of a whole HTTP/1.1 response, for transports that must answer before a request is parsed (header overflow). */
export function rawHttpResponse(res: SimResponse, reason: string): string {
  const body = new TextDecoder().decode(res.body);
  const lines = [`HTTP/1.1 ${res.status} ${reason}`];
  for (const [name, value] of Object.entries(res.headers)) lines.push(`${name}: ${value}`);
  lines.push(`content-length: ${res.body.byteLength}`, 'connection: close', '', body);
  return lines.join('\r\n');
}
