/**
 * The express client's HTTP request: node:http over a keep-alive agent, sending what supertest
 * (superagent 10) sent for the same call, so every answer stays the same: the path as superagent
 * builds it (a WHATWG URL's path and query, dot segments kept as written), `Accept-Encoding: gzip,
 * deflate` unless HEAD, a string body without a content type sent as a form, a Content-Length for
 * a non-empty body, no redirect followed, the answer's bytes as received. supertest cost about five
 * times the CPU per request (4 to 5 ms against 1 ms with msw's interceptor on), and the express
 * runs of the suite send thousands.
 */
import { type Agent, request } from 'node:http';
import type { TestResponse } from './client.js';

/** superagent's `preserveDotSegments`: `/./` and `/../` reach the server as written. */
function requestPath(url: string): string {
  const parts = url.match(/^([a-z][a-z\d+.-]*:\/\/[^/?#]*)([^?#]*)(.*)$/i);
  if (!parts) return new URL(url).pathname;
  const segments: string[] = [];
  const prefix = '__superagent_dot_segment_';
  const path = (parts[2] ?? '').replace(/\/((?:\.|%2e){1,2})(?=\/|$)/gi, (_, segment: string) => {
    const marker = `${prefix}${segments.length}__`;
    segments.push(segment);
    return `/${marker}`;
  });
  const parsed = new URL(`${parts[1]}${path}${parts[3]}`);
  let out = `${parsed.pathname}${parsed.search}`;
  segments.forEach((segment, index) => {
    out = out.replace(`${prefix}${index}__`, segment);
  });
  return out;
}

export function expressRequest(
  agent: Agent,
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | Uint8Array | undefined,
  answer: (status: number, headers: Record<string, string>, bytes: Buffer) => TestResponse,
): Promise<TestResponse> {
  const sent: Record<string, string> = { ...headers };
  const has = (name: string) => Object.keys(sent).some((k) => k.toLowerCase() === name);
  if (typeof body === 'string' && !has('content-type')) sent['Content-Type'] = 'application/x-www-form-urlencoded';
  const data =
    body === undefined ? undefined : typeof body === 'string' ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port, method, path: requestPath(`http://127.0.0.1:${port}${path}`), headers: sent, agent },
      (res) => {
        answered = true;
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => resolve(answer(res.statusCode ?? 0, res.headers as Record<string, string>, Buffer.concat(chunks))));
      },
    );
    // An error after the answer (the server closed while the body was still being sent) is not the request's.
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.setNoDelay(true);
    if (method !== 'HEAD' && !has('accept-encoding')) req.setHeader('Accept-Encoding', 'gzip, deflate');
    for (const [k, v] of Object.entries(sent)) req.setHeader(k, v);
    // superagent's `if (data && ...)`: a non-empty string, or any buffer (Content-Length: 0 included).
    if (method !== 'HEAD' && data !== undefined && (typeof data !== 'string' || data.length > 0) && !has('content-length'))
      req.setHeader('Content-Length', typeof data === 'string' ? Buffer.byteLength(data) : data.length);
    req.end(method === 'HEAD' ? undefined : data);
  });
}
