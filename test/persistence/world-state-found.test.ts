/**
 * What the property test of saved worlds found (issue 47, both fixed): a loaded fault store held
 * another in-memory form than the live one, and a world saved while an advance waited on a webhook
 * attempt never loaded. Each is kept as its own case.
 */
import { describe, expect, it } from 'vitest';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createClient } from '../support/client.js';
import { answerTo, differing, FAULTS, optionsOf, receiver } from '../support/saved-worlds.js';
import { exportOf, partsOf } from '../support/world-state.js';

describe('what the property found (issue 47, fixed)', () => {
  // A loaded fault store held its rules with their keys in another order (`segments` added last)
  // and its generator's words unsigned where the live one's are signed: the same behaviour, but
  // the canonical dumps of the saved world and of the world loaded from it differed.
  it('a world with an HTTP fault rule, saved and loaded, has the same canonical dump', async () => {
    const options = optionsOf({ seed: 1, users: 2, feed: 'off', endpoint: null }, receiver([]));
    const a = createClient('fetch', options);
    expect(
      (await a.post('/_sandbox/faults', { match: { method: 'POST', path: '/v2/user' }, action: { status: 429 }, times: 1 })).status,
    ).toBe(200);
    const b = createClient('fetch', { ...options, seed: 2, from: JSON.parse(JSON.stringify(a.sandbox.exportWorld())) });
    await b.sandbox.ready;
    expect(partsOf(exportOf(b.sandbox.world)).get(FAULTS)).toBe(partsOf(exportOf(a.sandbox.world)).get(FAULTS));
  });

  // A world saved while an attempt made during an advance is in flight (a busy save: its last
  // checkpoint and the inputs since, the advance among them) never got ready when loaded: the
  // replay of the advance waited for that attempt, whose answer is not in the document, and the
  // replay sends such attempts only once it is over (engine/persist.ts `transport`, `goLive`).
  // Now the replayed advance does not wait for an attempt once every logged answer was given back
  // (state/webhooks/endpoint-queue.ts `Steps`): the world loads, and the attempt is sent again once
  // it is served (at least once). What its answer causes (here a retry the advance would have
  // made) comes then: the delivery log and the jobs differ until the next advance, nothing else.
  it('a world saved while an attempt made during an advance is in flight loads; the attempt is sent again once it is served', {
    timeout: 10_000,
  }, async () => {
    let holding = false;
    let release = (): void => undefined;
    let attempted = (): void => undefined;
    const inFlight = new Promise<void>((resolve) => {
      attempted = resolve;
    });
    const transport: WebhookTransport = (request) => {
      if (!holding) return Promise.resolve(answerTo(request));
      // The first attempt of the advance is held; the export is taken while it is in flight.
      holding = false;
      attempted();
      return new Promise((resolve) => {
        release = () => resolve(answerTo(request));
      });
    };
    const options = optionsOf({ seed: 1, users: 2, feed: 'off', endpoint: null }, transport);
    const a = createClient('fetch', options);
    const team = a.creds.teams[0]?.team_id ?? '';
    // A receiver answering 500: the message's retry is an attempt the advance makes.
    expect(
      (await a.mgmt('POST', `/v1/org/${a.orgId}/team/${team}/sandbox/webhook`, { body: { url: 'https://receiver.test/fail/1' } })).status,
    ).toBe(200);
    const user = (await a.post('/v2/user', { client_user_id: 'held' })).body.user_id as string;
    expect((await a.post('/v2/link/connect/demo', { user_id: user, provider: 'oura' })).status).toBe(200);
    await a.sandbox.settle();
    holding = true;
    const advancing = a.sandbox.advance(3600);
    await inFlight;
    const doc = JSON.parse(JSON.stringify(a.sandbox.exportWorld())) as { log: Array<{ k: string }> };
    release();
    await advancing;
    await a.sandbox.settle();
    expect(doc.log.some((e) => e.k === 'adv')).toBe(true);

    const sentB: string[] = [];
    const b = createClient('fetch', { ...options, webhookTransport: receiver(sentB), seed: 2, from: doc });
    await b.sandbox.ready;
    await b.sandbox.settle();
    // The held attempt, sent again once B was served (its answer was never logged).
    expect(sentB.length).toBeGreaterThan(0);
    expect(sentB.every((l) => l.includes('/fail/1'))).toBe(true);
    // Only what that attempt's answer causes differs: the delivery log and the jobs (its retries).
    expect(differing(exportOf(a.sandbox.world), exportOf(b.sandbox.world))).toEqual(['jobs', 'world.webhook-delivery']);
    // Both reach the same time; the rest of the world is the same.
    expect(b.sandbox.world.clock.now()).toBe(a.sandbox.world.clock.now());
  });
});
