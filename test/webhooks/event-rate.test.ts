/**
 * What the event-rate work of issue 17 relies on: message ids issued from a counter (no SHA-256
 * per message) never repeat and are the same in every run; attempt ids are a pure function of
 * their keys; the journal keeps the JSON a webhook message signs (one rendering per event) and
 * reads back exactly what was emitted.
 */
import { describe, expect, it } from 'vitest';
import { IdFactory, keyedToken } from '../../src/engine/ids.js';
import { createSandbox, type Sandbox } from '../../src/index.js';
import { deliveryOf } from '../../src/state/webhooks/delivery.js';
import type { WebhookTransport } from '../../src/state/webhooks/transport.js';
import { createEndpoint } from '../../scripts/bench-endpoint.js';
import { runCount } from '../support/run-size.js';

const BASE62 = /^[0-9A-Za-z]+$/;
// Each token is a pure function of its counter or key, so uniqueness over the first 40,000 takes
// the same code path as over 200,000; CI (HEALTH_SANDBOX_SLOW_TESTS=1) runs the 200,000.
const TOKENS = runCount(200_000, 40_000);

describe('counted tokens (webhook message ids)', () => {
  it('are base62 of the asked length, unique within a kind and scope, and the same for the same seed', () => {
    const a = new IdFactory(7);
    const seen = new Set<string>();
    let malformed = 0;
    for (let i = 0; i < TOKENS; i++) {
      const t = a.countedToken('svix-msg_', 27, 'scope', 'msg_');
      if (t.length !== 31 || !t.startsWith('msg_') || !BASE62.test(t.slice(4))) malformed++;
      seen.add(t);
    }
    expect(malformed).toBe(0);
    expect(seen.size).toBe(TOKENS);
    const again = new IdFactory(7);
    const first = [...seen].slice(0, 1000);
    expect(first.map(() => again.countedToken('svix-msg_', 27, 'scope', 'msg_'))).toEqual(first);
    // Another seed or scope gives other tokens.
    expect(new IdFactory(8).countedToken('svix-msg_', 27, 'scope')).not.toBe(new IdFactory(7).countedToken('svix-msg_', 27, 'scope'));
    expect(new IdFactory(7).countedToken('svix-msg_', 27, 'other')).not.toBe(new IdFactory(7).countedToken('svix-msg_', 27, 'scope'));
  });
});

describe('keyed tokens (webhook attempt ids)', () => {
  it('are a pure function of seed and key, and distinct over many keys', () => {
    const seen = new Set<string>();
    for (let m = 0; m < TOKENS / 4; m++) {
      for (let n = 1; n <= 4; n++) seen.add(keyedToken(27, 'atmpt_', 1, `webhook-attempt\u241fmsg_${m}\u241fep_1\u241f${n}`));
    }
    expect(seen.size).toBe(TOKENS);
    const t = keyedToken(27, 'atmpt_', 1, 'k');
    expect(t).toBe(keyedToken(27, 'atmpt_', 1, 'k'));
    expect(t).toMatch(/^atmpt_[0-9A-Za-z]{27}$/);
    expect(keyedToken(27, 'atmpt_', 2, 'k')).not.toBe(t);
  });
});

function nullTransport(sent: string[]): WebhookTransport {
  return Object.assign(
    async (req: { body: string }) => {
      sent.push(req.body);
      return { status: 204, headers: {}, body: '' };
    },
    { sharesSignals: true },
  );
}

async function feedDay(seed: number): Promise<{ sandbox: Sandbox; sent: string[]; seen: Map<number, string> }> {
  const sent: string[] = [];
  const seen = new Map<number, string>();
  const sandbox = createSandbox({
    seed,
    logger: () => undefined,
    clock: 'manual',
    webhookTransport: nullTransport(sent),
    onEvent: (entry) => seen.set(entry.seq, JSON.stringify(entry.envelope)),
  });
  await createEndpoint(sandbox, 'http://127.0.0.1:9/hook');
  await sandbox.advance('6h');
  await sandbox.settle();
  return { sandbox, sent, seen };
}

/** The first of the two seed-5 runs the determinism test compares: the byte-for-byte test reads it too (a day of feed each). */
let first: ReturnType<typeof feedDay> | undefined;
const firstRun = () => (first ??= feedDay(5));

describe('the journal keeps the rendered JSON of delivered events', () => {
  it('reads back what was emitted, byte for byte, and the message body is the same string', async () => {
    const { sandbox, sent, seen } = await firstRun();
    const events = sandbox.world.events.list({}, 100_000);
    expect(events.length).toBeGreaterThan(100);
    const messages = [...deliveryOf(sandbox.world).log.messages.values()];
    const bodyBySeq = new Map(messages.map((m) => [m.journal_seq, m.body]));
    for (const e of events) expect(JSON.stringify(e.envelope)).toBe(seen.get(e.seq));
    // Every message is the body of an event of the journal, the same string.
    expect(messages.length).toBeGreaterThan(0);
    for (const [seq, body] of bodyBySeq) expect(body, `message of event ${seq}`).toBe(seen.get(seq));
    expect(sent.length).toBe(messages.length);
    // Filters read the kept type and user without parsing.
    const type = events[events.length - 1]!.envelope.event_type;
    expect(sandbox.world.events.list({ event_type: type }, 100_000).every((e) => e.envelope.event_type === type)).toBe(true);
    const user = events[0]!.envelope.user_id;
    expect(sandbox.world.events.list({ user_id: user }, 100_000).length).toBe(events.filter((e) => e.envelope.user_id === user).length);
  });

  it('gives the same message ids, bodies and attempt ids in two runs with the same seed', async () => {
    const runs = [await firstRun(), await feedDay(5)];
    const [a, b] = runs.map(({ sandbox }) => {
      const log = deliveryOf(sandbox.world).log;
      return JSON.stringify({
        m: [...log.messages.values()].map((m) => [m.id, m.body]),
        a: log.listAttempts({}, 100_000).map((r) => [r.id, r.msg_id]),
      });
    });
    expect(a).toBe(b);
    const ids = [...deliveryOf(runs[0]!.sandbox.world).log.messages.keys()];
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of runs) r.sandbox.close();
  });
});
