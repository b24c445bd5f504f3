/**
 * The results of an order transaction (`GET /v3/order_transaction/{id}/result` and `/result/pdf`):
 * one transaction per placed order, shared by its re-draws and replacements, so its results are
 * those of all its orders with results, oldest first, a later order's result for the same
 * analyte replacing an earlier one (a re-draw supersedes the first draw). Metadata is that of the
 * most recent report, with the worst interpretation of the orders merged.
 */
import type { BiomarkerResultJson, MissingResultJson, ResultSet } from '../../fixtures/labs/lab-results.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import type { Interpretation } from './order-lifecycle.js';
import type { Order } from './order-model.js';
import { metadata, sampleInformation } from './order-result-views.js';
import { orderResults, resultTimes, type ResultTimes } from './order-results.js';
import { ordersOf } from './order-store.js';
import type { Domain } from '../domain-context.js';
import { transactionView } from './order-views.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';

interface TransactionResults {
  transactionId: string;
  /** The orders whose results are merged, oldest first. */
  parts: Array<{ order: Order; set: ResultSet; times: ResultTimes }>;
  /** The merged result set (the latest report's stage, the worst interpretation). */
  set: ResultSet;
}

const SEVERITY: Record<string, number> = { normal: 0, unknown: 1, abnormal: 2, critical: 3 };

export function transactionResults(env: Domain, transactionId: string): TransactionResults {
  const tx = ordersOf(env).transaction(transactionId);
  if (!tx) throw labsError.notFound(LABS_ERRORS.transactionNotFound);
  const parts: TransactionResults['parts'] = [];
  for (const order of tx.orders) {
    const set = orderResults(env.world, order);
    const times = resultTimes(order);
    if (set && times) parts.push({ order, set, times });
  }
  const latest = parts[parts.length - 1];
  if (!latest) throw labsError.notFound(LABS_TEXTS.transactionResultsNotAvailable(tx.id));
  const results = new Map<string, BiomarkerResultJson>();
  const missing = new Map<string, MissingResultJson>();
  let interpretation: Interpretation = 'normal';
  let hasCritical = false;
  for (const { set } of parts) {
    for (const r of set.results) {
      results.set(r.slug || r.name, r);
      missing.delete(r.slug || r.name);
    }
    for (const m of set.missing) if (!results.has(m.slug || m.name)) missing.set(m.slug || m.name, m);
    if ((SEVERITY[set.interpretation] ?? 0) > (SEVERITY[interpretation] ?? 0)) interpretation = set.interpretation;
    hasCritical ||= set.hasCritical;
  }
  return {
    transactionId: tx.id,
    parts,
    set: { stage: latest.set.stage, results: [...results.values()], missing: [...missing.values()], interpretation, hasCritical },
  };
}

/** `LabResultsRaw` of a transaction. */
export function transactionResultsView(env: Domain, tr: TransactionResults): z.input<typeof W.LabResultsRaw> {
  const latest = tr.parts[tr.parts.length - 1] as TransactionResults['parts'][number];
  const meta = { ...metadata(latest.order, latest.set, latest.times), interpretation: tr.set.interpretation };
  const samples: z.input<typeof W.OrderResult>['sample_information'] = {};
  for (const p of tr.parts) Object.assign(samples, sampleInformation(p.order, p.times));
  return {
    metadata: meta,
    results: tr.set.results,
    missing_results: tr.set.missing,
    sample_information: samples,
    order_transaction: transactionView(env, tr.transactionId),
  };
}
