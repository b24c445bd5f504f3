/**
 * The test kit without traps (issue 32): `waitForEvent` looks, by default, at every event since
 * the start of the test (this client's last `reset()` or `beginTest()`), so "make the request,
 * then wait" finds the event the request emitted; `since: 'now'`, `since: <seq>` (from `mark()`)
 * choose otherwise. The waits that must fail use `timeout: 1` (a rejection, not a timed pass).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connectSandbox, startSandbox, type StartedSandbox } from '../../src/testing.js';

const started: StartedSandbox[] = [];
afterAll(async () => {
  for (const s of started) await s.close();
});

const isConnection = (e: { envelope: { event_type: string } }) => e.envelope.event_type === 'provider.connection.created';

async function connectUser(s: StartedSandbox, clientUserId: string): Promise<string> {
  const key = (await s.credentials()).teams[0]?.api_keys.sandbox ?? '';
  const headers = { 'x-vital-api-key': key, 'content-type': 'application/json' };
  const user = (await (
    await fetch(`${s.url}/v2/user`, { method: 'POST', headers, body: JSON.stringify({ client_user_id: clientUserId }) })
  ).json()) as { user_id: string };
  const linked = await fetch(`${s.url}/v2/link/connect/demo`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ user_id: user.user_id, provider: 'oura' }),
  });
  expect(linked.status).toBe(200);
  return user.user_id;
}

describe('waitForEvent since', () => {
  it('request, then wait: the event the request emitted is found (default: since the start of the test)', async () => {
    const s = await startSandbox({ world: 'empty' });
    started.push(s);
    const userId = await connectUser(s, 'first');
    const got = await s.waitForEvent(isConnection, { timeout: 1 });
    expect(got.envelope.user_id).toBe(userId);
    // A client connected over HTTP (the CLI in CI) waits the same way.
    expect((await connectSandbox(s.url).waitForEvent(isConnection, { timeout: 1 })).seq).toBe(got.seq);
  });

  it("since 'now' skips what came before; a mark from mark() waits for what follows it", async () => {
    const s = await startSandbox({ world: 'empty' });
    started.push(s);
    await connectUser(s, 'before');
    await expect(s.waitForEvent(isConnection, { since: 'now', timeout: 1 })).rejects.toThrow(
      /No matching event within 1 ms \(since the wait began\)/,
    );
    const mark = await s.mark();
    expect(mark).toBeGreaterThan(0);
    const later = await connectUser(s, 'after');
    const got = await s.waitForEvent(isConnection, { since: mark, timeout: 1 });
    expect(got.envelope.user_id).toBe(later);
    expect(got.seq).toBeGreaterThan(mark);
  });

  it('beginTest() starts a test without a reset; reset() starts one with a fresh world', async () => {
    const s = await startSandbox({ world: 'empty' });
    started.push(s);
    await connectUser(s, 'earlier-test');
    expect(await s.beginTest()).toBe(await s.mark());
    await expect(s.waitForEvent(isConnection, { timeout: 1 })).rejects.toThrow(/since the start of the test/);
    const mine = await connectUser(s, 'this-test');
    expect((await s.waitForEvent(isConnection, { timeout: 1 })).envelope.user_id).toBe(mine);

    await s.reset();
    expect(await s.mark()).toBe(0);
    const fresh = await connectUser(s, 'after-reset');
    expect((await s.waitForEvent(isConnection, { timeout: 1 })).envelope.user_id).toBe(fresh);
  });

  it('a mark from before a reset done by another client counts from that reset', async () => {
    const s = await startSandbox({ world: 'empty' });
    started.push(s);
    await connectUser(s, 'one');
    await connectUser(s, 'two');
    await s.beginTest();
    await connectSandbox(s.url).reset(); // elsewhere: this client does not know
    const fresh = await connectUser(s, 'three');
    expect((await s.waitForEvent(isConnection, { timeout: 1 })).envelope.user_id).toBe(fresh);
  });
});
