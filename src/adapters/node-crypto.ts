/**
 * Plugs node:crypto's HMAC into webhook signing (same bytes as the portable signer in the core,
 * about 4x faster): imported by the Node entries (the node:http adapter, the CLI). One
 * `KeyObject` per signing key (the core hands the same decoded key bytes for a secret every
 * time), so a message costs one keyed HMAC and no key import.
 */
import type { KeyObject } from 'node:crypto';
import { createRequire } from 'node:module';
import { useHmacSha256 } from '../state/webhooks/signing.js';

const keyObjects = new WeakMap<Uint8Array, KeyObject>();
/** `node:crypto`, loaded on the first signature, not at start (BENCHMARKS.md, "Start-up"). */
let crypto: typeof import('node:crypto') | undefined;

useHmacSha256((key, data) => {
  crypto ??= createRequire(import.meta.url)('node:crypto') as typeof import('node:crypto');
  const { createHmac, createSecretKey } = crypto;
  let keyObject = keyObjects.get(key);
  if (keyObject === undefined) keyObjects.set(key, (keyObject = createSecretKey(key)));
  return createHmac('sha256', keyObject).update(data, 'utf8').digest('base64');
});
