/**
 * `daily.data.{cholesterol,ige,igg}.*` (api-facts F.2): when a lab order's results become final
 * (`completed`) the user's new cholesterol, IgE and IgG samples are announced with
 * `.created`; corrected results (`corrected`) re-send the same samples (same lab, type and
 * timestamp) with their corrected values as `.updated`. Partial results are not announced (the
 * timeseries serve final results only). The labs area's `labtest.order.updated` event is the
 * trigger (an event-bus subscriber, like the EHR pipelines'); nothing is generated for a team
 * environment where nobody listens (design rule 11), and nothing in feed mode `off`.
 */
import type { JournalEntry } from '../../engine/events.js';
import type { Domain } from '../domain-context.js';
import { usersOf } from '../users/users.js';
import { emitUserEvent, wearablesOf } from './connections.js';
import { LAB_RESOURCES, labSamplesOfOrder, labSource, labSourceId } from './lab-timeseries.js';

const KIND: Record<string, 'created' | 'updated'> = { completed: 'created', corrected: 'updated' };

export function onLabOrderEvent(d: Domain, entry: JournalEntry): void {
  if (entry.envelope.event_type !== 'labtest.order.updated') return;
  const order = entry.envelope.data as { id?: string; user_id?: string; last_event?: { status?: string } } | null;
  const low = order?.last_event?.status?.split('.').pop();
  const kind = low ? KIND[low] : undefined;
  if (!order?.id || !order.user_id || !kind) return;
  const { world, partition } = d;
  const mode = wearablesOf(world).feedMode;
  if (mode === 'off') return;
  const resources = LAB_RESOURCES.filter((r) => mode === 'on' || world.events.listening(partition, `daily.data.${r}.`));
  if (resources.length === 0) return;
  const user = usersOf(partition, world).liveUser(order.user_id);
  if (!user) return;
  for (const r of resources) {
    const found = labSamplesOfOrder(d, user, order.id, r);
    if (!found || found.samples.length === 0) continue;
    emitUserEvent(d, user.user_id, `daily.data.${r}.${kind}`, {
      source_id: labSourceId(found.lab),
      user_id: user.user_id,
      source: labSource(found.lab),
      data: found.samples.map((s) => s.body),
    });
  }
}
