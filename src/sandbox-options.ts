/** Resolves `createSandbox` options into what every world of the sandbox is built with. */
import { JOURNAL_LIMIT } from './engine/events.js';
import type { ResolvedSandboxOptions, SandboxOptions } from './sandbox.js';
import { SANDBOX_USER_CAP } from './state/users/users.js';
import { resolveWebhookOptions } from './state/webhooks/options.js';

export const DEFAULT_START_AT = '2026-01-05T09:00:00.000Z';
const DEFAULT_USERS = 25;
const DEFAULT_USERS_ELSEWHERE = 3;

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
