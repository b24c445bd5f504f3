/**
 * The bench receiver's signature check (Standard Webhooks / Svix): HMAC-SHA256 with node:crypto
 * over `${id}.${timestamp}.` and the raw body bytes, compared in constant time with every `v1,`
 * entry of the signature header; svix-* headers win over webhook-*, the timestamp must be within
 * 5 minutes. test/engine/bench-verify.test.ts proves it agrees with the `svix` library.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const TOLERANCE_SECONDS = 300;

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function verifySignature(keys: readonly Buffer[], headers: Headers, body: Buffer, nowSeconds: number): boolean {
  const set = header(headers, 'svix-id') !== undefined ? 'svix' : 'webhook';
  const id = header(headers, `${set}-id`);
  const ts = header(headers, `${set}-timestamp`);
  const sigs = header(headers, `${set}-signature`);
  if (!id || !ts || !sigs || !/^\d+$/.test(ts)) return false;
  if (Math.abs(nowSeconds - Number(ts)) > TOLERANCE_SECONDS) return false;
  for (const key of keys) {
    const expected = Buffer.from(createHmac('sha256', key).update(`${id}.${ts}.`).update(body).digest('base64'), 'latin1');
    let at = 0;
    while (at < sigs.length) {
      let end = sigs.indexOf(' ', at);
      if (end < 0) end = sigs.length;
      if (sigs.startsWith('v1,', at) && end - at - 3 === expected.length) {
        if (timingSafeEqual(Buffer.from(sigs.slice(at + 3, end), 'latin1'), expected)) return true;
      }
      at = end + 1;
    }
  }
  return false;
}
