// The worked example of docs/ENGINE.md ("Adding an endpoint"), step 1: this file goes to
// src/state/labs/order-by-sample.ts as it is. tsc checks it here (docs/engine-example/tsconfig.json)
// and test/engine/engine-example.test.ts checks that the page quotes it verbatim.
// #region domain
/** Finding a lab order by the sample id printed on its tube (an example endpoint: docs/ENGINE.md). */
import { LABS_ERRORS, labsError } from './errors.js';
import type { Order } from './order-model.js';
import type { Domain } from '../domain-context.js';
import { ordersOf } from './order-store.js';

/** The team environment's order whose sample id is `sampleId`, or the area's 404. */
export function orderBySample(d: Domain, sampleId: string): Order {
  const order = ordersOf(d).bySample(sampleId); // a store index: no scan
  if (!order) throw labsError.notFound(LABS_ERRORS.orderGetNotFound);
  return order;
}
// #endregion
