/**
 * Scenarios over the control plane: `PUT /_sandbox/scenario` replaces the world with one built
 * from a scenario (JSON body; the same schema as `scenarios/*.yaml`), kept across resets;
 * `DELETE` goes back to the plain world; `GET` shows the scenario in force.
 *
 * LIMITATIONS
 * - The body is JSON; send YAML files through `health-sandbox/testing` (`loadScenario`) or
 *   `--scenario`, which read YAML.
 */
import { sandboxError } from '../../state/sandbox/errors.js';
import { z } from 'zod';
import { defineRoute, type Ctx, reply } from '../../engine/route.js';
import { ScenarioError } from '../../scenario/parse.js';
import { ScenarioLoaded, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

async function load(ctx: Ctx, scenario: unknown) {
  let loaded: unknown;
  try {
    // The world built (ctx.world is the one this request started in).
    loaded = await ctx.loadScenario(scenario);
  } catch (error) {
    if (error instanceof ScenarioError) {
      throw sandboxError.scenarioInvalid(error.problems);
    }
    throw error;
  }
  const built = (loaded ?? { seed: ctx.world.seed, now: ctx.world.clock.iso() }) as { seed: number; now: string };
  return reply(200, { status: 'ok', seed: built.seed, now: built.now });
}

export const scenarioRoutes = [
  defineRoute({
    id: 'sandbox.scenario.put',
    method: 'PUT',
    path: '/_sandbox/scenario',
    auth: 'control',
    summary: 'Replaces the world with one built from a scenario (kept across resets); a bad one changes nothing (422 naming the path).',
    request: { body: lazySchema(() => z.unknown()) },
    responses: { 200: res(ScenarioLoaded, '{status, seed, now}'), 422: 'The scenario has problems: each names its path in the file' },
    handle: (ctx, { body }) => load(ctx, body),
  }),
  defineRoute({
    id: 'sandbox.scenario.delete',
    method: 'DELETE',
    path: '/_sandbox/scenario',
    auth: 'control',
    summary: 'Drops the scenario: a fresh plain world.',
    responses: { 200: res(ScenarioLoaded, 'OK') },
    handle: (ctx) => load(ctx, null),
  }),
];
