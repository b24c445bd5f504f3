/**
 * The bench receiver's node:crypto signature check (scripts/bench-verify.ts) agrees with the
 * `svix` library on real deliveries signed by the sandbox and on forged, stale and malformed
 * ones, so the bench's "verified" counts are what an integrator's receiver would count.
 */
import { createHmac } from 'node:crypto';
import { expect, it } from 'vitest';
import { Webhook } from 'svix';
import { verifySignature } from '../../scripts/bench-verify.js';
import '../../src/adapters/node-crypto.js';
import { signatureHeader, useHmacSha256 } from '../../src/state/webhooks/signing.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const OTHER = 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD';
const key = (s: string) => Buffer.from(s.slice('whsec_'.length), 'base64');

function svixAccepts(secret: string, headers: Record<string, string>, body: string): boolean {
  try {
    new Webhook(secret).verify(body, headers);
    return true;
  } catch {
    return false;
  }
}

it('accepts exactly what svix accepts: signed bodies (non-ASCII too), rotated keys, both header sets; rejects forged, stale and malformed ones', () => {
  const now = Math.floor(Date.now() / 1000);
  const bodies = ['{"event_type":"daily.data.steps.created","data":{"seq":1}}', '{"name":"Zoë 🚴","data":{"x":[1,2,3]}}', '{}'];
  const cases: Array<{ secret: string; headers: Record<string, string>; body: string }> = [];
  for (const body of bodies) {
    for (const ts of [now, now - 200, now - 400, now + 400]) {
      const good = signatureHeader([SECRET], 'msg_abc', ts, body);
      const rotated = signatureHeader([OTHER, SECRET], 'msg_abc', ts, body);
      for (const sig of [
        good,
        rotated,
        signatureHeader([OTHER], 'msg_abc', ts, body),
        `v2,${good.slice(3)}`,
        `${good.slice(0, -2)}AA`,
        'v1,',
        '',
      ]) {
        cases.push({ secret: SECRET, body, headers: { 'svix-id': 'msg_abc', 'svix-timestamp': String(ts), 'svix-signature': sig } });
        cases.push({
          secret: SECRET,
          body,
          headers: { 'webhook-id': 'msg_abc', 'webhook-timestamp': String(ts), 'webhook-signature': sig },
        });
      }
      // Signed for another id or body.
      cases.push({ secret: SECRET, body, headers: { 'svix-id': 'msg_xyz', 'svix-timestamp': String(ts), 'svix-signature': good } });
      cases.push({
        secret: SECRET,
        body: `${body} `,
        headers: { 'svix-id': 'msg_abc', 'svix-timestamp': String(ts), 'svix-signature': good },
      });
    }
  }
  let accepted = 0;
  for (const c of cases) {
    const ours = verifySignature([key(c.secret)], c.headers, Buffer.from(c.body, 'utf8'), Date.now() / 1000);
    expect(ours, JSON.stringify(c)).toBe(svixAccepts(c.secret, c.headers, c.body));
    if (ours) accepted++;
  }
  // Both outcomes are exercised: valid signatures inside the tolerance, the rest rejected.
  expect(accepted).toBeGreaterThan(10);
  expect(accepted).toBeLessThan(cases.length / 2);
  // The signer under test is node:crypto's; the portable one signs the same bytes.
  const native = signatureHeader([SECRET], 'msg_abc', now, bodies[1]!);
  useHmacSha256(null);
  try {
    expect(signatureHeader([SECRET], 'msg_abc', now, bodies[1]!)).toBe(native);
  } finally {
    useHmacSha256((k, data) => createHmac('sha256', k).update(data, 'utf8').digest('base64'));
  }
});
