/**
 * What the webhooks area takes from `createSandbox` (kept across resets): the transport, the
 * attempt timeout, the destination allowlist, whether private networks are reachable, and the
 * file sink for pipeline NDJSON output. Set once per world by `configureWebhooks`.
 */
import { worldSlot, type World } from '../../engine/world.js';
import { ATTEMPT_TIMEOUT_MS } from './retry-policy.js';
import { fetchTransport, type WebhookTransport } from './transport.js';

/** Appends text to a named file inside a directory chosen at start (the CLI's `--data-dir`). */
export interface FileSink {
  append(name: string, text: string): Promise<void>;
}

interface WebhookOptions {
  /** How attempts are sent (default: the global `fetch`, looked up at call time). */
  transport?: WebhookTransport;
  /** Wall-clock timeout of one attempt, ms (default 15000). */
  attemptTimeoutMs?: number;
  /** When set, destinations must be one of these hosts (`*.example.com` matches subdomains). */
  allowHosts?: readonly string[];
  /**
   * Whether private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) are allowed.
   * Default true; the CLI turns it off when it binds a non-loopback address.
   */
  privateNetworks?: boolean;
  /** Where pipeline NDJSON files go; without it `PUT /_sandbox/pipelines/ndjson` answers 409. */
  fileSink?: FileSink;
  /**
   * Attempts to one endpoint in flight at once (1: one at a time; default `'auto'`: with a
   * transport that `pipelines`, a window that adapts to the receiver, otherwise 1, `delivery-window.ts`). They
   * always start in event order; a transport that pipelines over one connection per endpoint (the
   * CLI's) also delivers them in that order.
   */
  window?: number | 'auto';
}

export interface ResolvedWebhookOptions {
  transport: WebhookTransport;
  attemptTimeoutMs: number;
  allowHosts: readonly string[] | null;
  privateNetworks: boolean;
  fileSink: FileSink | null;
  /** A fixed window, or `'auto'` (see `delivery-window.ts`). */
  window: number | 'auto';
  /** Whether the transport given pipelines (read before the world wraps it). */
  pipelines: boolean;
}

/** The most attempts to one endpoint `window` may allow in flight. */
const MAX_DELIVERY_WINDOW = 256;

const optionsSlot = worldSlot<ResolvedWebhookOptions>('webhook-options', () => resolveWebhookOptions({}), 'aside');

export function resolveWebhookOptions(options: WebhookOptions): ResolvedWebhookOptions {
  const timeout = options.attemptTimeoutMs ?? ATTEMPT_TIMEOUT_MS;
  if (!(timeout > 0) || !Number.isFinite(timeout)) throw new Error(`deliveryTimeout must be above 0 seconds, got ${timeout / 1000}`);
  const window = options.window ?? 'auto';
  if (window !== 'auto' && (!Number.isInteger(window) || window < 1 || window > MAX_DELIVERY_WINDOW))
    throw new Error(`deliveryWindow must be a whole number from 1 to ${MAX_DELIVERY_WINDOW}, got ${window}`);
  const hosts = options.allowHosts?.map((h) => h.trim().toLowerCase()).filter((h) => h.length > 0);
  return {
    transport: options.transport ?? fetchTransport,
    attemptTimeoutMs: timeout,
    allowHosts: hosts && hosts.length > 0 ? hosts : null,
    privateNetworks: options.privateNetworks ?? true,
    fileSink: options.fileSink ?? null,
    window,
    pipelines: options.transport?.pipelines === true,
  };
}

/** The area's options for a world (defaults when the sandbox gave none). */
export function webhookOptionsOf(world: World): ResolvedWebhookOptions {
  return optionsSlot(world);
}

/** Called by `createSandbox` for every world it builds. */
export function configureWebhooks(world: World, options: ResolvedWebhookOptions): void {
  const current = optionsSlot(world);
  Object.assign(current, options);
}
