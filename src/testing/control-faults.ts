/**
 * The fault controls of the control client (`control.faults.*`, issue 28): HTTP fault rules and
 * domain faults, thin typed calls of the control routes (types from `./types.ts`). Every method is
 * async: a bad rule is a rejected promise (a ControlError carrying the 422 naming the field).
 */
import type { z } from 'zod';
import type { faultRuleBody } from '../state/sandbox/faults-schema.js';
import type { LabFault } from '../state/sandbox/faults-labs.js';
import { seg, type Requester } from './control-groups.js';
import type { webhookFaultBody } from '../state/sandbox/faults-webhooks.js';
import type { WebhookFaultList, WebhookFaultView } from '../wire/webhook-faults.js';
import type { FaultList, FaultRule, FaultsCleared, LabFaultApplied, ProviderOutage } from './types.js';

/** A webhook delivery fault as `POST /_sandbox/faults/webhooks` takes it: `{fault, endpoint_id?, event_type?, seconds?, times?}`. */
export type WebhookFaultSpec = z.input<typeof webhookFaultBody>;
export type WebhookFault = z.output<typeof WebhookFaultView>;

/** A rule as `POST /_sandbox/faults` takes it: `{match?, action, times?, probability?, after?}`. */
export type FaultRuleSpec = z.input<typeof faultRuleBody>;

export interface FaultControls {
  /** Adds an HTTP fault rule; answers it with its id. */
  add(rule: FaultRuleSpec): Promise<FaultRule>;
  /** The rules in force, with remaining times, matches and faulted answers. */
  list(): Promise<FaultList>;
  /** Removes one rule; answers it. */
  remove(id: string): Promise<FaultRule>;
  /** Removes every rule. */
  clear(): Promise<FaultsCleared>;
  /** A lab fault on an order (sample_rejected, draw_failed, cancelled_by_lab, ...). */
  order(orderId: string, fault: LabFault): Promise<LabFaultApplied>;
  /** A provider outage from now: `{seconds}` or `{duration: '2h'}`. */
  outage(provider: string, window: { seconds: number } | { duration: string }): Promise<ProviderOutage>;
  /** A webhook delivery fault (duplicate, out_of_order, delayed, stale_timestamp) for the next `times` messages. */
  webhook(rule: WebhookFaultSpec): Promise<WebhookFault>;
  /** The webhook delivery faults still to apply. */
  webhookFaults(): Promise<z.output<typeof WebhookFaultList>>;
  /** Removes every webhook delivery fault. */
  clearWebhookFaults(): Promise<FaultsCleared>;
}

export function faultControls(request: Requester): FaultControls {
  return {
    add: async (rule) => request('POST', '/_sandbox/faults', rule),
    list: async () => request('GET', '/_sandbox/faults'),
    remove: async (id) => request('DELETE', `/_sandbox/faults/${seg(id)}`),
    clear: async () => request('DELETE', '/_sandbox/faults'),
    order: async (orderId, fault) => request('POST', `/_sandbox/orders/${seg(orderId)}/fault`, { fault }),
    outage: async (provider, window) => request('POST', `/_sandbox/providers/${seg(provider)}/outage`, window),
    webhook: async (rule) => request('POST', '/_sandbox/faults/webhooks', rule),
    webhookFaults: async () => request('GET', '/_sandbox/faults/webhooks'),
    clearWebhookFaults: async () => request('DELETE', '/_sandbox/faults/webhooks'),
  };
}
