/**
 * The scenario file (issue 17): a world declared in JSON or YAML. One zod schema; its JSON
 * Schema is published as `scenarios/scenario.schema.json` (generated with `z.toJSONSchema`, kept
 * up to date by a test) so editors complete and check scenario files.
 */
import { z } from 'zod';
import { DEMO_PROVIDERS } from '../fixtures/wearables/providers.js';
import { ERROR_TYPES } from '../state/wearables/connections.js';
import { RETRIABLE, NON_RETRIABLE } from '../state/wearables/pulls.js';
import { LOW_STATUSES, ORDER_STATUSES } from '../state/labs/order-lifecycle.js';
import { scenarioFault } from '../state/sandbox/faults-schema.js';
import { LAB_FAULTS } from '../state/sandbox/faults-labs.js';
import { scenarioWebhookFault } from '../state/sandbox/faults-webhooks.js';
import { lazySchema } from '../engine/lazy-schema.js';

const isoTime = lazySchema(() =>
  z.string().refine((v) => !Number.isNaN(Date.parse(v)), { message: 'expected an ISO time such as 2026-01-05T09:00:00Z' }),
);
const isoDate = lazySchema(() => z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date such as 1985-12-09'));

/** Fates a lab order can be scripted to follow (each maps to the sandbox's zip-code hints). */
const LAB_PATHS = [
  'happy',
  'lost_in_transit',
  'failure_to_deliver_to_customer',
  'problem_in_transit',
  'failure_to_deliver_to_lab',
  'lab_processing_blocked',
  'do_not_process',
  'sample_error',
  'redraw',
  'appointment',
  'appointment_cancelled',
  'corrected',
] as const;

type LowStatusName = (typeof LOW_STATUSES)[number];

const LAB_RESULTS = ['normal', 'abnormal', 'critical', 'missing'] as const;
const LAB_METHODS = ['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection'] as const;

const connection = lazySchema(() =>
  z
    .object({
      provider: z
        .enum(DEMO_PROVIDERS, {
          error: (issue) => `unknown provider ${JSON.stringify(issue.input)} (demo providers: ${DEMO_PROVIDERS.join(', ')})`,
        })
        .describe(`A demo provider: ${DEMO_PROVIDERS.join(', ')}`),
      state: z
        .enum(['connected', 'error'])
        .default('connected')
        .describe('connected, or error (provider.connection.error after connecting)'),
      error: z
        .object({ type: z.enum(ERROR_TYPES).default('token_refresh_failed'), message: z.string().min(1).optional() })
        .strict()
        .optional()
        .describe('The error, when state is error'),
      historical_pull: z
        .object({
          outcome: z.enum(['success', 'failure', 'retry_then_success', 'retry_then_failure']),
          error_details: z.enum([...RETRIABLE, ...NON_RETRIABLE]).optional(),
          resources: z.array(z.string()).min(1).optional(),
        })
        .strict()
        .optional()
        .describe('How the historical pull of this connection ends'),
    })
    .strict(),
);

const labOrder = lazySchema(() =>
  z
    .object({
      method: z.enum(LAB_METHODS).default('walk_in_test'),
      lab_test: z.string().optional().describe("A lab test id of the team; default: the team's standard test for the method"),
      path: z.enum(LAB_PATHS).default('happy').describe('The scripted path the order follows as the clock moves'),
      result: z.enum(LAB_RESULTS).optional().describe('What the results show (critical emits labtest.result.critical)'),
      fault: z
        .enum(LAB_FAULTS)
        .optional()
        .describe('A lab fault applied once the order is placed (and at its status): as POST /_sandbox/orders/{order_id}/fault'),
      status: z
        .union([z.enum(LOW_STATUSES as [LowStatusName, ...LowStatusName[]]), z.enum(ORDER_STATUSES as [string, ...string[]])])
        .optional()
        .describe(
          'The status to start at: the order is placed, then moved at once along its path up to this status (as POST /v3/order/{order_id}/test does), and goes on from there at its usual pace. A low-level status such as partial_results, or the full <high>.<method>.<low> form; default: ordered',
        ),
      patient: z
        .object({
          first_name: z.string().min(1).optional(),
          last_name: z.string().min(1).optional(),
          dob: isoDate.optional(),
          gender: z.enum(['female', 'male', 'other']).optional(),
        })
        .strict()
        .optional(),
    })
    .strict(),
);

const user = lazySchema(() =>
  z
    .object({
      client_user_id: z.string().min(1),
      team: z.string().optional().describe('Name of a team in this file or of a seeded team; default: the first team'),
      time_zone: z.string().optional().describe('IANA time zone, e.g. Europe/Paris'),
      birth_date: isoDate.optional(),
      connections: z.array(connection).default([]),
      ecg: z
        .array(z.enum(['sinus_rhythm', 'atrial_fibrillation', 'inconclusive']))
        .optional()
        .describe(
          'ECG classifications the user must have among readings of the last 60 days (needs an apple_health_kit or fitbit connection)',
        ),
      lab_orders: z.array(labOrder).default([]),
    })
    .strict(),
);

const labs = lazySchema(() =>
  z
    .object({
      progression: z
        .enum(['clock', 'manual'])
        .optional()
        .describe(
          'clock (default): lab orders step on the sandbox clock; manual: the real sandbox, only POST /v3/order/{order_id}/test moves them',
        ),
    })
    .strict(),
);

const healthSdk = lazySchema(() =>
  z
    .object({
      connection_policy: z
        .enum(['auto', 'explicit'])
        .describe(
          'auto (default, Auto Connect): deregistering apple_health_kit, health_connect or samsung_health has no effect; explicit (Explicit Connect): it removes the connection, and only the SDK connect (POST /v2/link/provider/manual/{provider}) makes one',
        ),
    })
    .strict(),
);

/** A share of revised data (nights, activity days, workouts): 0 to 1. */
const revisionShare = () => z.number().min(0).max(1);

const team = lazySchema(() =>
  z
    .object({
      name: z.string().min(1).describe('A seeded team of that name is configured; otherwise a team is created'),
      region: z.enum(['us', 'eu']).optional(),
      beta_features: z.array(z.string()).optional(),
      event_type_prefixes: z.array(z.string().min(1)).optional().describe('The team allowlist of event types (both environments)'),
      labs: labs.optional().describe("This team's lab order progression (PUT /_sandbox/teams/{team_id}/labs)"),
      data_revisions: revisionShare()
        .optional()
        .describe(
          "This team's share of nights, activity days and workouts a later sync revises (daily.data.sleep|activity|workouts.updated; POST /_sandbox/wearables/feed)",
        ),
      health_sdk: healthSdk
        .optional()
        .describe("This team's Health SDK connection policy, both environments (POST /_sandbox/wearables/health-sdk)"),
    })
    .strict(),
);

const webhook = lazySchema(() =>
  z
    .object({
      team: z.string().optional().describe('Team name; default: the first team'),
      receiver: z
        .string()
        .regex(/^[A-Za-z0-9._~-]{1,100}$/)
        .optional()
        .describe('Deliver to the built-in test receiver of this name'),
      url: z.string().url().optional().describe('Or deliver to this URL'),
      filter_types: z.array(z.string().min(1)).optional(),
      answers: z
        .object({
          status: z.number().int().min(200).max(599),
          retry_after: z.number().int().min(0).optional(),
          times: z
            .number()
            .int()
            .min(1)
            .max(1000)
            .optional()
            .describe('Answer this for the first N deliveries only, then 200 (a receiver that fails N times, then succeeds)'),
        })
        .strict()
        .optional()
        .describe('What the built-in receiver answers (e.g. 500 to fail, 429 with retry_after; times: N to fail N times then succeed)'),
    })
    .strict(),
);

export const scenarioSchema = lazySchema(() =>
  z
    .object({
      $schema: z.string().optional(),
      description: z.string().optional(),
      world: z
        .enum(['empty', 'default'])
        .default('empty')
        .describe('empty (default): the org, teams and keys only; default: the seeded demo world'),
      seed: z.number().int().optional(),
      clock: z.object({ start_at: isoTime.optional() }).strict().optional(),
      feed: z.enum(['auto', 'on', 'off']).optional(),
      data_revisions: revisionShare()
        .optional()
        .describe(
          'Share of nights, activity days and workouts a later sync revises, sending daily.data.sleep|activity|workouts.updated (default 0.05; 0 switches revisions off)',
        ),
      labs: labs.optional().describe('How lab orders move in every team (a team may say otherwise)'),
      health_sdk: healthSdk.optional().describe("The Health SDK's connection policy in every team (a team may say otherwise)"),
      plan: z.enum(['launch', 'grow', 'scale', 'premium']).optional().describe("The org's plan"),
      teams: z.array(team).default([]),
      users: z.array(user).default([]),
      webhooks: z.array(webhook).default([]),
      provider_outages: z
        .array(
          z
            .object({
              provider: z.enum(DEMO_PROVIDERS),
              duration: z.string().min(1).describe('How long from the start: 90s, 15m, 2h, 3d or ISO 8601'),
            })
            .strict(),
        )
        .default([])
        .describe('Provider outages from the start (as POST /_sandbox/providers/{provider}/outage)'),
      faults: z
        .array(scenarioFault)
        .default([])
        .describe(
          'HTTP fault rules in force from the start, and again after every reset (the body of POST /_sandbox/faults, team by name)',
        ),
      webhook_faults: z
        .array(scenarioWebhookFault)
        .default([])
        .describe('Webhook delivery faults from the start, to every endpoint (the body of POST /_sandbox/faults/webhooks)'),
    })
    .strict(),
);

export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;

/** The JSON Schema published as `scenarios/scenario.schema.json`. */
export function scenarioJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(scenarioSchema, { io: 'input' }) as Record<string, unknown>;
}
