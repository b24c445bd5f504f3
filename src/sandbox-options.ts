/** Resolves `createSandbox` options into what every world of the sandbox is built with. */
import type { RequestLogOptions } from './engine/journal.js';
import { JOURNAL_LIMIT } from './engine/events.js';
import type { ClockMode } from './engine/clock.js';
import type { EventSubscriber } from './engine/events.js';
import type { LogSink, WorldDocument } from './engine/persist.js';
import type { FeedMode, WorldKind, WorldOptions } from './engine/world.js';
import type { ScenarioInput } from './scenario/schema.js';
import type { FileSink, ResolvedWebhookOptions } from './state/webhooks/options.js';
import type { WebhookTransport } from './state/webhooks/transport.js';
import { SANDBOX_USER_CAP } from './state/users/users.js';
import { resolveWebhookOptions } from './state/webhooks/options.js';

export const DEFAULT_START_AT = '2026-01-05T09:00:00.000Z';
const DEFAULT_USERS = 25;
const DEFAULT_USERS_ELSEWHERE = 3;

export interface SandboxOptions {
  /** World seed (default 1). */
  seed?: number;
  /** `manual` (default; moves only when advanced) or `realtime`. */
  clock?: ClockMode;
  /** Sandbox time at start (default 2026-01-05T09:00:00Z). */
  startAt?: string | number | Date;
  /** Sandbox seconds per wall second in realtime mode (default 1). */
  timeScale?: number;
  /** Users in the first team's sandbox environment (default 25). Above 50 lifts the cap. */
  users?: number;
  /** Users in every other team environment (default 3). */
  usersElsewhere?: number;
  /** Whether the sandbox's 50-user cap applies (default true, unless users > 50). */
  limits?: boolean;
  /** When set, `/_sandbox/*` requires `Authorization: Bearer <token>`. */
  adminToken?: string;
  /** Wall clock source (default Date.now); realtime mode and webhook signature timestamps. */
  wallClock?: () => number;
  /** Where engine-side errors are logged (default console.error). */
  logger?: (message: string, error?: unknown) => void;
  /** Most recent events kept in the journal (`GET /_sandbox/events`), a ring of this size; default 10000 (`JOURNAL_LIMIT`). */
  journalLimit?: number;
  /**
   * The periodic wearable feed (default `auto`): `auto` generates new-data events only for team
   * environments where someone listens (a webhook endpoint, a pipeline or an in-process
   * subscriber); `on` always (every event lands in the journal); `off` never. Kept across resets.
   */
  feed?: FeedMode | boolean;
  /** Lab orders move on the clock (`clock`, default) or only when simulated (`manual`, the real sandbox); docs/simulated/labs.md. */
  labsProgression?: WorldOptions['labsProgression'];
  /** In-process subscriber that receives every event (kept across resets). */
  onEvent?: EventSubscriber;
  /**
   * `default` (the seeded demo world) or `empty`: the org, its teams, keys and lab accounts and
   * nothing else (no users, connections or orders). Kept across resets.
   */
  world?: WorldKind;
  /**
   * A scenario (object, or JSON/YAML text; see `scenarios/`; not a file path: read it first, or
   * use `startSandbox`) applied to every world this sandbox builds, including after `reset()`. Its
   * `world`, `seed`, `clock.start_at` and `feed` win over these options. Checked at once (a
   * ScenarioError names the path); applied before the first request is answered (`await
   * sandbox.ready`), all or nothing: nothing it causes reaches subscribers, webhook receivers or
   * files until all of it applied. If applying fails, `ready` rejects with the ScenarioError and
   * every request answers 503 naming it (except `PUT|DELETE /_sandbox/scenario` and
   * `POST /_sandbox/reset`) until another scenario loads or a reset applies.
   */
  scenario?: ScenarioInput | string;
  /** Addresses the sandbox is served at (adapters set them; used in generated URLs). */
  baseUrl?: string;
  managementUrl?: string;
  /** How webhook attempts are sent (default: the global `fetch`, looked up at each attempt). */
  webhookTransport?: WebhookTransport;
  /** Wall-clock timeout of one webhook attempt, seconds (default 15; CLI `--delivery-timeout`). */
  deliveryTimeout?: number;
  /**
   * Webhook attempts to one endpoint in flight at once (1 to 256; 1: one at a time). They start
   * in event order; the CLI's transport pipelines them over one connection, so they also arrive
   * in that order (CLI `--delivery-window`). Default `'auto'`: with a transport that `pipelines`
   * (the CLI's), a window that adapts to the receiver; with any other (`fetch`, msw) one at a time
   * (docs/simulated/webhooks.md).
   */
  deliveryWindow?: number | 'auto';
  /** When set, webhook URLs must point at one of these hosts (`*.example.com` for subdomains; CLI `--webhook-allow`). */
  webhookAllow?: readonly string[];
  /** Whether webhooks may go to private networks (default true; the CLI sets false off loopback). */
  webhookPrivateNetworks?: boolean;
  /** Where pipeline NDJSON files are appended (the CLI builds one over `--data-dir`). */
  fileSink?: FileSink;
  /** The request journal (`GET /_sandbox/requests`): size (default 1000), bodies, wall clock and timer. Kept across resets. */
  requests?: RequestLogOptions;
  /**
   * A saved world to start from (`sandbox.exportWorld()`, a snapshot's document, `GET
   * /_sandbox/world`): its seed, scenario and everything that happened in it win over `seed`,
   * `users`, `world`, `scenario` and `startAt`. Checked at once (an Error says what is wrong);
   * `await sandbox.ready` before relying on it.
   */
  from?: WorldDocument | unknown;
  /**
   * Where every world this sandbox serves is saved as it changes (the CLI's `--state-file`):
   * `write` gets the whole document when a world starts (build, reset, scenario, restore, import),
   * `append` each input it accepts after that; both are synchronous and durable when they return.
   */
  stateSink?: StateSink;
}

/** Where a sandbox's worlds are saved (engine/persist.ts; the Node adapter writes a file). */
export interface StateSink extends LogSink {
  write(doc: WorldDocument, sameWorld?: boolean): void;
}

export interface ResolvedSandboxOptions {
  seed: number;
  clock: ClockMode;
  startAt: number;
  timeScale: number;
  users: number;
  usersElsewhere: number;
  limits: boolean;
  adminToken: string | undefined;
  wallClock: () => number;
  logger: (message: string, error?: unknown) => void;
  journalLimit: number;
  feed: FeedMode;
  labsProgression: WorldOptions['labsProgression'];
  webhooks: ResolvedWebhookOptions;
  world: WorldKind;
}

function toMs(value: string | number | Date | undefined, fallback: string): number {
  if (value === undefined) return Date.parse(fallback);
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  if (!Number.isFinite(ms)) throw new Error(`Invalid start time: ${String(value)}`);
  return ms;
}

export function resolveOptions(options: SandboxOptions = {}): ResolvedSandboxOptions {
  const users = options.users ?? DEFAULT_USERS;
  if (!Number.isInteger(users) || users < 0) throw new Error(`users must be a whole number >= 0, got ${users}`);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, got ${seed}`);
  const timeScale = options.timeScale ?? 1;
  if (!(timeScale > 0)) throw new Error(`timeScale must be > 0, got ${timeScale}`);
  return {
    seed,
    clock: options.clock ?? 'manual',
    startAt: toMs(options.startAt, DEFAULT_START_AT),
    timeScale,
    users,
    usersElsewhere: options.usersElsewhere ?? DEFAULT_USERS_ELSEWHERE,
    limits: users > SANDBOX_USER_CAP ? false : (options.limits ?? true),
    adminToken: options.adminToken,
    wallClock: options.wallClock ?? (() => Date.now()),
    logger: options.logger ?? ((message, error) => console.error(`[health-sandbox] ${message}`, error ?? '')),
    journalLimit: options.journalLimit ?? JOURNAL_LIMIT,
    feed: options.feed === true ? 'on' : options.feed === false ? 'off' : (options.feed ?? 'auto'),
    labsProgression: options.labsProgression ?? 'clock',
    webhooks: resolveWebhookOptions({
      ...(options.webhookTransport ? { transport: options.webhookTransport } : {}),
      ...(options.deliveryTimeout !== undefined ? { attemptTimeoutMs: options.deliveryTimeout * 1000 } : {}),
      ...(options.deliveryWindow !== undefined ? { window: options.deliveryWindow } : {}),
      ...(options.webhookAllow ? { allowHosts: options.webhookAllow } : {}),
      ...(options.webhookPrivateNetworks !== undefined ? { privateNetworks: options.webhookPrivateNetworks } : {}),
      ...(options.fileSink ? { fileSink: options.fileSink } : {}),
    }),
    world: options.world ?? 'default',
  };
}
