/**
 * The one renderer of engine answers: every JSON body (errors included) is serialised here, so
 * every adapter (express, msw, node:http) writes the same bytes for the same answer.
 */
import type { SimResponse } from './http-types.js';

const encoder = new TextEncoder();
export const JSON_TYPE = 'application/json';
export const EMPTY = new Uint8Array(0);

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
