/**
 * Webhook endpoints (Svix endpoints behind Vital's management API): per team environment, with
 * secrets (current + old keys still signing for 24 h), custom headers, filters and the
 * delivery-health state the retry rules need. One world-level store with explicit indexes.
 */
import { generateSecret, svixId } from './signing.js';
import type { Domain } from '../domain-context.js';
import type { Environment, Partition } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { webhooksError } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

/** The previous key keeps signing this long after a rotation (sandbox time). */
const OLD_KEY_GRACE_MS = 24 * 3600 * 1000;
/** Svix keeps at most this many old keys. */
const MAX_OLD_KEYS = 10;
/**
 * Retention of the delivery log (and of the pipeline streams and test receivers): the most recent
 * messages kept per team environment. Older messages whose every destination is finished
 * (success or failed) are dropped with their attempts, so a long realtime run stays bounded;
 * messages still pending are never dropped. `PUT /_sandbox/webhooks/settings {"retention": N}`.
 */
export const DEFAULT_RETENTION = 5000;
export const MAX_RETENTION = 1_000_000;

export interface OldKey {
  key: string;
  /** Sandbox epoch ms after which the key no longer signs. */
  expires_at: number;
}

export interface WebhookEndpoint {
  id: string;
  partition_id: string;
  team_id: string;
  environment: Environment;
  url: string;
  description: string;
  rate_limit: number | null;
  disabled: boolean;
  filter_types: string[] | null;
  created_at: string;
  updated_at: string;
  /** Sandbox extension: send the Standard Webhooks `webhook-*` header set instead of `svix-*`. */
  whitelabel_headers: boolean;
  secret: string;
  /** Newest first. */
  old_keys: OldKey[];
  /** Custom headers sent with every delivery, names as given. */
  headers: Record<string, string>;
  /** Sandbox epoch ms of the first failure since the last success (5-day auto-disable). */
  failing_since: number | null;
  /** Why the endpoint was disabled by the sandbox itself, if it was. */
  disabled_reason: string | null;
}

/** The management API's `Webhook` object. */
interface WebhookView {
  id: string;
  description: string;
  rate_limit: number | null;
  url: string;
  disabled: boolean;
  filter_types: string[] | null;
  created_at: string;
  updated_at: string;
  whitelabel_headers?: true;
}

export function webhookView(ep: WebhookEndpoint): WebhookView {
  const view: WebhookView = {
    id: ep.id,
    description: ep.description,
    rate_limit: ep.rate_limit,
    url: ep.url,
    disabled: ep.disabled,
    filter_types: ep.filter_types === null ? null : [...ep.filter_types],
    created_at: ep.created_at,
    updated_at: ep.updated_at,
  };
  if (ep.whitelabel_headers) view.whitelabel_headers = true;
  return view;
}

/** The receiver name when a URL points at the sandbox's test receiver (any host). */
function receiverNameOf(url: string): string | null {
  try {
    const m = /^\/_sandbox\/receiver\/([^/]+)\/?$/.exec(new URL(url).pathname);
    return m?.[1] !== undefined ? decodeURIComponent(m[1]) : null;
  } catch {
    return null;
  }
}

interface NewEndpoint {
  url: string;
  description: string;
  rate_limit: number | null;
  disabled: boolean;
  filter_types: string[] | null;
  whitelabel_headers: boolean;
  secret: string | null;
}

class WebhookStore {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  /** Partition id -> endpoint ids in creation order. */
  private readonly byPartition = new Map<string, string[]>();
  /** Test-receiver name -> endpoint ids whose URL points at it. */
  private readonly byReceiver = new Map<string, Set<string>>();

  constructor(private readonly world: World) {}

  create(partition: Partition, input: NewEndpoint): WebhookEndpoint {
    const now = this.world.clock.iso();
    const ep: WebhookEndpoint = {
      id: svixId(this.world, 'ep_'),
      partition_id: partition.id,
      team_id: partition.team.id,
      environment: partition.environment,
      url: input.url,
      description: input.description,
      rate_limit: input.rate_limit,
      disabled: input.disabled,
      filter_types: input.filter_types,
      created_at: now,
      updated_at: now,
      whitelabel_headers: input.whitelabel_headers,
      secret: input.secret ?? generateSecret(this.world, partition.id),
      old_keys: [],
      headers: {},
      failing_since: null,
      disabled_reason: null,
    };
    this.endpoints.set(ep.id, ep);
    const list = this.byPartition.get(partition.id);
    if (list) list.push(ep.id);
    else this.byPartition.set(partition.id, [ep.id]);
    this.indexReceiver(ep);
    return ep;
  }

  /** The endpoint with this id, in any partition. */
  endpoint(id: string): WebhookEndpoint | undefined {
    return this.endpoints.get(id);
  }

  /** Every endpoint, in creation order. */
  all(): IterableIterator<WebhookEndpoint> {
    return this.endpoints.values();
  }

  /** The endpoint if it belongs to the partition. */
  get(partition: Partition, id: string): WebhookEndpoint | undefined {
    const ep = this.endpoints.get(id);
    return ep && ep.partition_id === partition.id ? ep : undefined;
  }

  /** Endpoints of a partition in creation order. */
  list(partitionId: string): WebhookEndpoint[] {
    const out: WebhookEndpoint[] = [];
    for (const id of this.byPartition.get(partitionId) ?? []) {
      const ep = this.endpoints.get(id);
      if (ep) out.push(ep);
    }
    return out;
  }

  /** Whether a partition has any endpoint (cheap check on every event). */
  has(partitionId: string): boolean {
    return (this.byPartition.get(partitionId)?.length ?? 0) > 0;
  }

  setUrl(ep: WebhookEndpoint, url: string): void {
    this.unindexReceiver(ep);
    ep.url = url;
    this.indexReceiver(ep);
  }

  delete(ep: WebhookEndpoint): void {
    this.endpoints.delete(ep.id);
    this.unindexReceiver(ep);
    const list = this.byPartition.get(ep.partition_id);
    if (list) {
      const i = list.indexOf(ep.id);
      if (i >= 0) list.splice(i, 1);
    }
  }

  /** Deletes every endpoint of a team (both environments); answers them. */
  dropTeam(teamId: string): WebhookEndpoint[] {
    const gone: WebhookEndpoint[] = [];
    for (const env of ['sandbox', 'production'] as const) {
      const partitionId = `${teamId}:${env}`;
      for (const ep of this.list(partitionId)) {
        this.endpoints.delete(ep.id);
        this.unindexReceiver(ep);
        gone.push(ep);
      }
      this.byPartition.delete(partitionId);
    }
    return gone;
  }

  /** Rotates the secret: the old key keeps signing for 24 h; at most 10 old keys are kept. */
  rotate(ep: WebhookEndpoint, next: string | null): void {
    const now = this.world.clock.now();
    const kept = ep.old_keys.filter((k) => k.expires_at > now);
    kept.unshift({ key: ep.secret, expires_at: now + OLD_KEY_GRACE_MS });
    ep.old_keys = kept.slice(0, MAX_OLD_KEYS);
    ep.secret = next ?? generateSecret(this.world, ep.partition_id);
    ep.updated_at = this.world.clock.iso();
  }

  /** Keys that sign right now, newest first. */
  signingKeys(ep: WebhookEndpoint): string[] {
    // Most endpoints have no previous key in grace: one array, not three, per attempt.
    if (ep.old_keys.length === 0) return [ep.secret];
    const now = this.world.clock.now();
    return [ep.secret, ...ep.old_keys.filter((k) => k.expires_at > now).map((k) => k.key)];
  }

  /** Endpoints whose URL points at the named test receiver. */
  forReceiver(name: string): WebhookEndpoint[] {
    const out: WebhookEndpoint[] = [];
    for (const id of this.byReceiver.get(name) ?? []) {
      const ep = this.endpoints.get(id);
      if (ep) out.push(ep);
    }
    return out;
  }

  /** Canonical state for world snapshots (no back-references). */
  toJSON(): unknown {
    return { endpoints: [...this.endpoints.values()] };
  }

  private indexReceiver(ep: WebhookEndpoint): void {
    const name = receiverNameOf(ep.url);
    if (name === null) return;
    let set = this.byReceiver.get(name);
    if (!set) this.byReceiver.set(name, (set = new Set()));
    set.add(ep.id);
  }

  private unindexReceiver(ep: WebhookEndpoint): void {
    const name = receiverNameOf(ep.url);
    if (name !== null) this.byReceiver.get(name)?.delete(ep.id);
  }
}
dataClass('WebhookStore', WebhookStore);

export const webhooksOf = worldSlot('webhooks', (world) => new WebhookStore(world));

/** The endpoint with this id in the team environment, or the 404. */
export function endpointById(d: Domain, webhookId: string): WebhookEndpoint {
  const { world, partition } = d;
  const ep = webhooksOf(world).get(partition, webhookId);
  if (!ep) throw webhooksError.webhookNotFound();
  return ep;
}

// ---------------------------------------------------------------------------------------------
// Custom headers (Svix rules: forbidden names and prefixes, 4096-byte values; sensitive names are
// hidden when read back).

const FORBIDDEN_HEADERS = new Set([
  'user-agent',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailers',
  'transfer-encoding',
  'upgrade',
  'age',
  'cache-control',
  'clear-site-data',
  'expires',
  'pragma',
  'warning',
  'content-length',
  'content-type',
  'content-encoding',
  'content-language',
  'content-location',
  // Sandbox addition: the white-label signing headers must not be overridden either.
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  // Set by the HTTP client itself.
  'host',
  'connection',
]);
const FORBIDDEN_PREFIXES = ['x-amz-', 'x-amzn-', 'x-google', 'x-goog-', 'x-gfe', 'x-azure-', 'x-fd-', 'x-svix-', 'svix-'];
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_VALUE_MAX = 4096;

/** Why a header name/value pair cannot be sent at all (HTTP syntax, size), or null. */
export function headerSyntaxProblem(name: string, value: string): string | null {
  if (!TOKEN.test(name)) return 'Invalid Header Name.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value) || /[^\u0000-\u00ff]/.test(value)) return 'Invalid Header Value.';
  // Latin-1 only (checked above): one byte per character.
  if (value.length > HEADER_VALUE_MAX) return `Maximum header length is ${HEADER_VALUE_MAX} bytes`;
  return null;
}

/** Why a custom webhook header is refused (syntax, then Svix's forbidden names), or null. */
export function headerProblem(name: string, value: string): string | null {
  const k = name.toLowerCase();
  if (!TOKEN.test(name)) return 'Invalid Header Name.';
  if (FORBIDDEN_HEADERS.has(k)) return 'Header uses a forbidden key.';
  if (FORBIDDEN_PREFIXES.some((p) => k.startsWith(p))) return 'Header starts with a forbidden prefix.';
  return headerSyntaxProblem(name, value);
}

const SENSITIVE_EXACT = new Set([
  'authorization',
  'proxy-authorization',
  'www-authenticate',
  'proxy-authenticate',
  'x-auth-token',
  'cookie',
  'set-cookie',
]);
const SENSITIVE_PARTS = ['token', 'secret', 'key', 'password', 'cookie', 'auth'];

/** Whether a header's value is hidden when read back (Svix's list plus credential-like names). */
export function isSensitiveHeader(name: string): boolean {
  const k = name.toLowerCase();
  return SENSITIVE_EXACT.has(k) || SENSITIVE_PARTS.some((p) => k.includes(p));
}
