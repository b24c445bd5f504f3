/**
 * What the saved-world property tests share (test/persistence/world-state-property.test.ts and
 * world-state-found.test.ts): an in-process receiver answering by URL, a sandbox's options for a
 * run, and the parts of two canonical dumps that differ.
 */
import type { TransportRequest, WebhookTransport } from '../../src/state/webhooks/transport.js';
import { differingParts } from './world-state.js';

const WALL = Date.parse('2026-01-05T09:00:00Z');

/** What a property run sets up. */
export interface Setup {
  seed: number;
  users: 2 | 3;
  feed: 'off' | 'auto';
  /** A catch-all endpoint made before the operations (the usual first setup), answering 200 or 500; or none. */
  endpoint: 'ok' | 'fail' | null;
}

/** A receiver's answer by URL: one under `/fail/` answers 500, any other 200. */
export const answerTo = (request: TransportRequest) => ({ status: request.url.includes('/fail/') ? 500 : 200, headers: {}, body: '' });
/** A request as the tests compare it: receiver, message id and body (not the signature). */
export const line = (request: TransportRequest) => `${request.url} ${request.headers['svix-id'] ?? ''} ${request.body}`;

/** An in-process transport answering by URL (`answerTo`), recording every request in `sent`. */
export function receiver(sent: string[]): WebhookTransport {
  return (request) => {
    sent.push(line(request));
    return Promise.resolve(answerTo(request));
  };
}

export function optionsOf(s: Setup, webhookTransport: WebhookTransport) {
  return {
    seed: s.seed,
    users: s.users,
    usersElsewhere: 0,
    clock: 'manual',
    feed: s.feed,
    logger: () => undefined,
    wallClock: () => WALL,
    // One URL for every sandbox of a run (the fetch adapter intercepts nothing), so answers naming it compare equal.
    baseUrl: 'http://world.fetch.test',
    webhookTransport,
    // Attempts share a deadline while the wall clock has not passed the group's start (+50 ms):
    // with this fixed wall clock, every attempt of the worker joins the first open group of its
    // timeout and ends with it, however late it started (reported with issue 47). An hour keeps
    // an attempt held across a save from ending with a group another file or run opened.
    deliveryTimeout: 3600,
  } as const;
}

/** The parts of two exports (`exportOf`) that differ. */
export const differing = differingParts;
export const FAULTS = 'world.sandbox.faults';
