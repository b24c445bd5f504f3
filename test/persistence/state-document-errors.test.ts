/**
 * Issue 47: a version 3 document whose state this build cannot read (another form version, a store
 * or class it does not know, an engine part of the wrong shape, a reference to nothing) is refused
 * with a 422 naming what is wrong, and the world served stays as it was (nothing half-applied).
 */
import { describe, expect, it } from 'vitest';
import { ALL_ADAPTERS, createClient } from '../support/client.js';

const OPTIONS = { seed: 3, users: 1, usersElsewhere: 0, clock: 'manual', feed: 'off', logger: () => undefined } as const;

for (const adapter of ALL_ADAPTERS.filter((a) => a !== 'fetch')) {
  describe(`a saved state this build cannot read [${adapter}]`, () => {
    it('answers 422 naming what is wrong and keeps the world', async () => {
      const c = createClient(adapter, OPTIONS);
      expect((await c.post('/v2/user', { client_user_id: 'kept' })).status).toBe(200);
      const doc = (await c.get('/_sandbox/world')).body;
      expect(doc.version).toBe(3);
      const state = doc.state.state;
      const cases: Array<[unknown, RegExp]> = [
        [{ form: 1, state: {} }, /no stores/],
        [{ form: 1, state: null }, /no stores/],
        [{ form: 9, state }, /state form 9; this build reads form 1/],
        [{ form: 1, state: { ...state, slots: { $m: [{ $sym: 'nobody' }, {}] } } }, /unknown store "nobody"/],
        [
          { form: 1, state: { ...state, slots: { $m: [{ $sym: 'sandbox.report' }, { $c: 'Nope', f: {} }] } } },
          /unknown state class "Nope"/,
        ],
        [{ form: 1, state: { ...state, clock: 5 } }, /clock\.base is not a time/],
        [{ form: 1, state: { ...state, scheduler: { seq: 1, jobs: 'x' } } }, /scheduler\.jobs is not a list of jobs/],
        [{ form: 1, state: { ...state, events: null } }, /events is not an event journal/],
        [{ form: 1, state: { ...state, tenancy: { $r: 99999 } } }, /reference to object 99999/],
      ];
      const before = (await c.get('/v2/user')).body;
      for (const [bad, why] of cases) {
        const res = await c.put('/_sandbox/world', { ...doc, state: bad });
        expect(res.status, JSON.stringify(res.body)).toBe(422);
        expect(res.body.detail[0].msg).toMatch(/^invalid world document at state: /);
        expect(res.body.detail[0].msg).toMatch(why);
        expect((await c.get('/v2/user')).body).toEqual(before);
      }
      // The document itself still loads.
      expect((await c.put('/_sandbox/world', doc)).status).toBe(200);
      expect((await c.get('/v2/user')).body).toEqual(before);
    });
  });
}
