/**
 * What the lab control plane shows (`GET /_sandbox/labs/lifecycle`, `GET /_sandbox/labs/scenarios`):
 * the lifecycle tables per collection method and the scenario hints, read from the lifecycle rules.
 */
import type { z } from 'zod';
import { METHODS } from '../../fixtures/labs/labs.js';
import type * as W from '../../wire/schemas.js';
import { CANCELLABLE, FATES, HIGH_LEVEL, NAME_HINTS, ZIP_HINTS, buildPath, fullStatus, type LowStatus } from './order-lifecycle.js';

/** Per method: the statuses with their full status, the cancellable ones, the paths of each fate with step times. */
export function labLifecycle(): z.input<typeof W.LabLifecycle> {
  const methods = Object.fromEntries(
    METHODS.map((method) => [
      method,
      {
        statuses: Object.fromEntries((Object.keys(HIGH_LEVEL[method]) as LowStatus[]).map((low) => [low, fullStatus(method, low)])),
        cancellable_from: [...CANCELLABLE[method]],
        paths: Object.fromEntries(
          [...FATES[method].map((fate) => [fate, false] as const), ...(method === 'testkit' ? [['registrable', true] as const] : [])].map(
            ([fate, registrable]) => [
              fate,
              buildPath(method, registrable ? 'happy' : (fate as (typeof FATES)[typeof method][number]), registrable).map((step) => ({
                status: step.status,
                after_seconds: step.after / 1000,
                waits_for: step.gate ?? null,
              })),
            ],
          ),
        ),
      },
    ]),
  );
  return { methods };
}

/** The scenario hints: patient zip codes that choose a fate, last names that shape results. */
export function labScenarios(): z.input<typeof W.LabScenarios> {
  return {
    zip_hints: ZIP_HINTS.map((h) => ({ zip: h.zip, fate: h.fate, methods: h.methods, description: h.description })),
    last_name_hints: NAME_HINTS.map((h) => ({ last_name: h.last_name, ...h.effect, description: h.description })),
  };
}
