/**
 * What an advance of the clock caused (`POST /_sandbox/clock/advance`): how many events and
 * webhook delivery attempts, how many demo users expired (deleted with their data 7 days after
 * their first demo connection), how many of the events came from the periodic wearable feed, and
 * which webhook endpoints make the feed run (design rule 11: in feed mode `auto` the feed runs
 * only where someone listens to `daily.data.*`; an endpoint without `filter_types` takes every
 * event type, so it turns the feed on for its team environment). Time stays predictable: the
 * answer says why an advance was slow and what to change (`filter_types`, or feed `off`).
 */
import type { z } from 'zod';
import type { World } from '../../engine/world.js';
import type * as W from '../../wire/schemas.js';
import { wearablesOf } from '../wearables/connections.js';
import { allEndpoints } from '../webhooks/rules.js';
import { deliveryOf } from '../webhooks/delivery.js';
import { demoUsersExpired } from '../users/demo-expiry.js';

const FEED_PREFIX = 'daily.data.';

/** What an advance caused and who makes the feed run: the answer's part beside the clock (`AdvanceDone`). */
export type AdvanceReport = Pick<z.input<typeof W.AdvanceDone>, 'caused' | 'feed'>;

/** A webhook endpoint that takes wearable feed events, and so makes the feed run (`filter_types` null: every event type). */
export type FeedListener = AdvanceReport['feed']['listeners'][number];

/** The feed mode in force (`auto`, `on`, `off`). */
export function feedModeOf(world: World): string {
  return wearablesOf(world).feedMode;
}

/** The enabled endpoints that take some `daily.data.*` event type. */
export function feedListeners(world: World): FeedListener[] {
  const out: FeedListener[] = [];
  for (const ep of allEndpoints(world, {})) {
    if (ep.disabled) continue;
    if (ep.filter_types !== null && !ep.filter_types.some((t) => t.startsWith(FEED_PREFIX))) continue;
    out.push({
      endpoint_id: ep.id,
      team_id: ep.team_id,
      environment: ep.environment,
      url: ep.url,
      filter_types: ep.filter_types === null ? null : [...ep.filter_types],
    });
  }
  return out;
}

/** The advice shown when catch-all endpoints make the feed run (the banner and the advance answer). */
export function feedNote(mode: string, listeners: readonly FeedListener[]): string | null {
  if (mode === 'off') return null;
  const catchAll = listeners.filter((l) => l.filter_types === null).length;
  if (mode === 'on')
    return 'The wearable feed is on for every team (feed mode "on"): each 2 simulated hours emits data events; feed mode "auto" or "off" keeps time fast.';
  if (catchAll === 0) return null;
  return `${catchAll} webhook endpoint${catchAll === 1 ? ' has' : 's have'} no filter_types, so ${catchAll === 1 ? 'it takes' : 'they take'} every event type, daily.data.* included: the wearable feed runs for ${catchAll === 1 ? 'its' : 'their'} team environments (data events and deliveries every 2 simulated hours). Give the endpoints filter_types (only the event types you handle) or set the feed off to keep time fast.`;
}

/** Starts counting; the returned function stops and reports what happened meanwhile. */
export function watchAdvance(world: World): () => AdvanceReport {
  const events = world.events.emitted;
  const deliveries = deliveryOf(world).attemptsMade;
  const expired = demoUsersExpired(world);
  let feedEvents = 0;
  const stop = world.events.subscribe((entry) => {
    if (entry.envelope.event_type.startsWith(FEED_PREFIX)) feedEvents++;
  });
  return () => {
    stop();
    const mode = feedModeOf(world);
    const listeners = feedListeners(world);
    return {
      caused: {
        events: world.events.emitted - events,
        feed_events: feedEvents,
        deliveries: deliveryOf(world).attemptsMade - deliveries,
        expired_users: demoUsersExpired(world) - expired,
      },
      feed: { mode, listeners, note: feedNote(mode, listeners) },
    };
  };
}
