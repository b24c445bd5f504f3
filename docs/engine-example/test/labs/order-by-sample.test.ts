// The worked example of docs/ENGINE.md ("Adding an endpoint"), step 3: this file goes to
// test/labs/order-by-sample.test.ts as it is.
// #region test
import { expect, it } from 'vitest';
import { LABS_ERRORS } from '../../src/state/labs/errors.js';
import { newOrder } from '../support/lab-helpers.js';
import { createClient, forEachAdapter } from '../support/client.js';
import { expectWire } from '../support/wire.js';

forEachAdapter('order by sample id', (adapter) => {
  it('answers the order whose sample carries the id; an unknown sample id answers 404', async () => {
    const c = createClient(adapter, { seed: 3, users: 2 });
    const order = await newOrder(c, 'testkit');
    const found = await c.get(`/v3/order/sample/${order.sample_id}`);
    expectWire('orders.by_sample', found);
    expect(found.body).toEqual((await c.get(`/v3/order/${order.id}`)).body);
    const missing = await c.get('/v3/order/sample/0000000000');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: LABS_ERRORS.orderGetNotFound });
  });
});
// #endregion
