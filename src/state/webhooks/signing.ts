/**
 * Webhook signing exactly as `../shared/reference/webhooks.md` section 1 describes (Svix /
 * Standard Webhooks): HMAC-SHA256 over `${id}.${timestamp}.${rawBody}` keyed with the base64
 * decoded secret (after `whsec_`), encoded `v1,<base64>`, several signatures space-separated.
 * Also the verifier the built-in test receiver uses, and the deterministic ids of Svix objects.
 */
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { constantTimeEqual, fromBase64, toBase64, utf8Encode } from '../../engine/bytes.js';
import type { World } from '../../engine/world.js';

const SECRET_PREFIX = 'whsec_';
/** Svix generates 24-byte secrets. */
const SECRET_BYTES = 24;
/** The Standard Webhooks spec allows 24 to 64 bytes. */
const SECRET_MIN_BYTES = 24;
const SECRET_MAX_BYTES = 64;
/** Receivers reject timestamps further than this from their clock, both ways. */
const TOLERANCE_SECONDS = 300;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** A fresh `whsec_` secret whose 24 bytes derive from the world seed and a counter. */
export function generateSecret(world: World, scope: string): string {
  return SECRET_PREFIX + toBase64(world.ids.bytes('webhook-secret', SECRET_BYTES, scope));
}

/**
 * Checks a user-supplied secret (`whsec_` optional + standard base64 of 24..64 bytes) and
 * returns it in canonical `whsec_` form, or an error message.
 */
export function normaliseSecret(input: string): { key: string } | { error: string } {
  const raw = input.startsWith(SECRET_PREFIX) ? input.slice(SECRET_PREFIX.length) : input;
  if (raw.length === 0 || raw.length % 4 !== 0 || !BASE64.test(raw)) {
    return { error: 'The secret must be standard base64 (optionally prefixed with whsec_)' };
  }
  const bytes = fromBase64(raw);
  if (toBase64(bytes) !== raw) return { error: 'The secret must be canonical standard base64' };
  if (bytes.length < SECRET_MIN_BYTES || bytes.length > SECRET_MAX_BYTES) {
    return { error: `The secret must decode to ${SECRET_MIN_BYTES} to ${SECRET_MAX_BYTES} bytes, got ${bytes.length}` };
  }
  return { key: SECRET_PREFIX + raw };
}

function keyBytes(secret: string): Uint8Array {
  return fromBase64(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret);
}

/** HMAC-SHA256 of a UTF-8 string, in standard base64. */
type HmacSha256Base64 = (key: Uint8Array, data: string) => string;
/** The same of `head` followed by `body` (two strings hashed one after the other: the signed text is never joined into one). */
type HmacSha256PartsBase64 = (key: Uint8Array, head: string, body: string) => string;

/**
 * A native HMAC a Node entry plugs in (`src/adapters/node-crypto.ts`: node:crypto, about 4x the
 * portable one on a 1 KB body). Same bytes either way; the core never imports it.
 */
let nativeHmac: HmacSha256PartsBase64 | null = null;

export function useHmacSha256(impl: HmacSha256Base64 | null): void {
  nativeHmac = impl === null ? null : (key, head, body) => impl(key, head + body);
}

/** Like `useHmacSha256`, for an HMAC that takes the signed text in its two parts (`${id}.${timestamp}.` and the body). */
export function useHmacSha256Parts(impl: HmacSha256PartsBase64 | null): void {
  nativeHmac = impl;
}

type KeyedHmac = ReturnType<typeof hmac.create>;
/** Secret -> its decoded key and an HMAC already keyed with it (cloned per message). */
const keys = new Map<string, { bytes: Uint8Array; keyed: KeyedHmac | null }>();
const KEY_CACHE_LIMIT = 1024;

function cachedKey(secret: string): { bytes: Uint8Array; keyed: KeyedHmac | null } {
  let key = keys.get(secret);
  if (key === undefined) {
    if (keys.size >= KEY_CACHE_LIMIT) keys.clear();
    key = { bytes: keyBytes(secret), keyed: null };
    keys.set(secret, key);
  }
  return key;
}

/** One `v1,<base64>` signature (the reference signer). */
function sign(secret: string, msgId: string, timestamp: number, rawBody: string): string {
  const key = cachedKey(secret);
  const head = `${msgId}.${timestamp}.`;
  if (nativeHmac !== null) return `v1,${nativeHmac(key.bytes, head, rawBody)}`;
  key.keyed ??= hmac.create(sha256, key.bytes);
  return `v1,${toBase64(
    key.keyed
      .clone()
      .update(utf8Encode(head + rawBody))
      .digest(),
  )}`;
}

/** The signature header value: one signature per key, newest key first, space-separated. */
export function signatureHeader(secrets: readonly string[], msgId: string, timestamp: number, rawBody: string): string {
  if (secrets.length === 1) return sign(secrets[0]!, msgId, timestamp, rawBody);
  return secrets.map((s) => sign(s, msgId, timestamp, rawBody)).join(' ');
}

type HeaderSet = 'svix' | 'webhook';

type VerifyResult = { ok: true; msgId: string; timestamp: number } | { ok: false; error: string };

/**
 * Verifies a delivery the way the `svix` library does: svix-* headers win over webhook-*,
 * the timestamp must be within 5 minutes of `nowSeconds`, any `v1` entry may match.
 */
export function verify(
  secrets: readonly string[],
  headers: Record<string, string | undefined>,
  rawBody: string,
  nowSeconds: number,
): VerifyResult {
  const set: HeaderSet | null = headers['svix-id'] !== undefined ? 'svix' : headers['webhook-id'] !== undefined ? 'webhook' : null;
  if (set === null) return { ok: false, error: 'Missing required headers' };
  const msgId = headers[`${set}-id`];
  const ts = headers[`${set}-timestamp`];
  const sigs = headers[`${set}-signature`];
  if (!msgId || !ts || !sigs) return { ok: false, error: 'Missing required headers' };
  if (!/^\d+$/.test(ts)) return { ok: false, error: 'Invalid Signature Headers' };
  const timestamp = Number(ts);
  if (nowSeconds - timestamp > TOLERANCE_SECONDS) return { ok: false, error: 'Message timestamp too old' };
  if (timestamp - nowSeconds > TOLERANCE_SECONDS) return { ok: false, error: 'Message timestamp too new' };
  if (secrets.length === 0) return { ok: false, error: 'No endpoint secret is registered for this receiver URL' };
  const given = sigs
    .split(' ')
    .filter((s) => s.startsWith('v1,'))
    .map((s) => utf8Encode(s.slice(3)));
  for (const secret of secrets) {
    const expected = utf8Encode(sign(secret, msgId, timestamp, rawBody).slice(3));
    if (given.some((g) => constantTimeEqual(g, expected))) return { ok: true, msgId, timestamp };
  }
  return { ok: false, error: 'No matching signature found' };
}

/**
 * Svix-style object ids: prefix + 27 base62 characters (never a '.'), deterministic per world.
 * Message ids, issued at event rate, come from the counted tokens (no SHA-256 per message).
 */
export function svixId(world: World, prefix: 'ep_' | 'msg_' | 'atmpt_', scope = ''): string {
  return prefix === 'msg_' ? world.ids.countedToken('svix-msg_', 27, scope, prefix) : prefix + world.ids.token(`svix-${prefix}`, 27, scope);
}
