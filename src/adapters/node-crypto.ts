/**
 * Plugs node:crypto's HMAC into webhook signing (same bytes as the portable signer in the core,
 * about 4x faster): imported by the Node entries (the node:http adapter, the CLI). One
 * `KeyObject` per signing key (the core hands the same decoded key bytes for a secret every
 * time), so a message costs one keyed HMAC and no key import, and no copy of its body.
 */
import type { KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { useHmacSha256Parts } from '../state/webhooks/signing.js';

const keyObjects = new WeakMap<Uint8Array, KeyObject>();
/** `node:crypto`, loaded on the first signature, not at start (BENCHMARKS.md, "Start-up"). */
let crypto: typeof import('node:crypto') | undefined;

useHmacSha256Parts((key, head, body) => {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const { createHmac, createSecretKey } = crypto;
  let keyObject = keyObjects.get(key);
  if (keyObject === undefined) keyObjects.set(key, (keyObject = createSecretKey(key)));
  // The two parts hashed in turn: the signed text (id, timestamp, body) is never copied into one string.
  return createHmac('sha256', keyObject).update(head, 'utf8').update(body, 'utf8').digest('base64');
});
