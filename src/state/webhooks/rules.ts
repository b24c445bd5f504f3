/**
 * The webhook domain rules in one place: creating, changing and deleting endpoints, their custom
 * headers, resending and recovering messages, and the delivery settings. The management handlers
 * and the control plane (`/_sandbox/webhooks/*`) both call these. Each function validates
 * everything first, then changes state, so a rejected request changes nothing; errors come from
 * the area's catalogue (`errors.ts`).
 */
import type { Domain } from '../domain-context.js';
import type { World } from '../../engine/world.js';
import type { RuleFailure } from '../../engine/schemas.js';
import { deliveryOf } from './delivery.js';
import { destinationProblem } from './destinations.js';
import { webhooksError, WEBHOOKS_ERRORS } from './errors.js';
import type { AttemptRecord } from './message.js';
import { errorText, pipelinesOf } from './pipelines.js';
import { webhookOptionsOf } from './options.js';
import { RECOVER_MAX_WINDOW_MS } from './retry-policy.js';
import { normaliseSecret } from './signing.js';
import { defaultReceiverConfig, receiversOf, type Receiver } from './webhook-receiver.js';
import { headerProblem, headerSyntaxProblem, isSensitiveHeader, webhooksOf, type WebhookEndpoint } from './webhooks.js';

const EVENT_TYPE = /^[a-zA-Z0-9\-_.]+$/;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A webhook URL the sandbox may deliver to, or a 422 on `loc`. */
function checkUrl(world: World, url: string, loc: Array<string | number> = ['body', 'url']): string {
  const problem = destinationProblem(world, url);
  if (problem !== null) throw webhooksError.invalidField(loc, problem, url);
  return url;
}

function checkDescription(description: string): string {
  if (CONTROL.test(description)) throw webhooksError.invalidField(['body', 'description'], WEBHOOKS_ERRORS.descriptionControl, description);
  return description;
}

function checkRateLimit(rateLimit: number | null): number | null {
  if (rateLimit !== null && (rateLimit < 1 || rateLimit > 65535))
    throw webhooksError.invalidField(['body', 'rate_limit'], WEBHOOKS_ERRORS.rateLimitRange, rateLimit);
  return rateLimit;
}

function checkFilterTypes(types: string[] | null): string[] | null {
  if (types === null) return null;
  if (types.length === 0) throw webhooksError.invalidField(['body', 'filter_types'], WEBHOOKS_ERRORS.filterTypesEmpty, types);
  types.forEach((t, i) => {
    if (t.length === 0 || t.length > 256 || !EVENT_TYPE.test(t))
      throw webhooksError.invalidField(['body', 'filter_types', i], WEBHOOKS_ERRORS.filterTypeSyntax, t);
  });
  return [...new Set(types)];
}

/** A signing secret as given (`whsec_` + base64 of 24..64 bytes), or a 422 on `field`. */
function checkSecret(secret: string, field: string): string {
  const result = normaliseSecret(secret);
  if ('error' in result) throw webhooksError.invalidField(['body', field], result.error, secret);
  return result.key;
}

interface CreateWebhookInput {
  url: string;
  description: string;
  rate_limit?: number | null;
  disabled: boolean;
  filter_types?: string[] | null;
  secret?: string | null;
  whitelabel_headers?: boolean;
}

export function createWebhook(d: Domain, body: CreateWebhookInput): WebhookEndpoint {
  const { world, partition } = d;
  const input = {
    url: checkUrl(world, body.url),
    description: checkDescription(body.description),
    rate_limit: checkRateLimit(body.rate_limit ?? null),
    disabled: body.disabled,
    filter_types: checkFilterTypes(body.filter_types ?? null),
    whitelabel_headers: body.whitelabel_headers ?? false,
    secret: body.secret === undefined || body.secret === null ? null : checkSecret(body.secret, 'secret'),
  };
  return webhooksOf(world).create(partition, input);
}

interface PatchWebhookInput {
  description?: string | null;
  rate_limit?: number | null;
  url?: string | null;
  disabled?: boolean | null;
  filter_types?: string[] | null;
  whitelabel_headers?: boolean;
}

/** Applies a patch: explicit null clears filter_types and rate_limit, and leaves the rest unchanged. */
export function patchWebhook(world: World, ep: WebhookEndpoint, body: PatchWebhookInput): WebhookEndpoint {
  const url = body.url === undefined || body.url === null ? undefined : checkUrl(world, body.url);
  const description = body.description === undefined || body.description === null ? undefined : checkDescription(body.description);
  const rateLimit = body.rate_limit === undefined ? undefined : checkRateLimit(body.rate_limit);
  const filterTypes = body.filter_types === undefined ? undefined : checkFilterTypes(body.filter_types);
  const store = webhooksOf(world);
  if (url !== undefined && url !== ep.url) store.setUrl(ep, url);
  if (description !== undefined) ep.description = description;
  if (rateLimit !== undefined) ep.rate_limit = rateLimit;
  if (filterTypes !== undefined) ep.filter_types = filterTypes;
  if (body.whitelabel_headers !== undefined) ep.whitelabel_headers = body.whitelabel_headers;
  if (body.disabled === true && !ep.disabled) {
    ep.disabled = true;
    ep.disabled_reason = null;
    deliveryOf(world).stopPending(ep.id, 'endpoint_disabled');
  } else if (body.disabled === false && ep.disabled) {
    ep.disabled = false;
    ep.disabled_reason = null;
    ep.failing_since = null;
  }
  ep.updated_at = world.clock.iso();
  return ep;
}

/** Deletes an endpoint; its pending attempts stop. */
export function deleteWebhook(world: World, ep: WebhookEndpoint): void {
  webhooksOf(world).delete(ep);
  deliveryOf(world).stopPending(ep.id, 'endpoint_deleted');
}

/** Rotates the signing secret (generated when `key` is null). */
export function rotateSecret(world: World, ep: WebhookEndpoint, key: string | null): void {
  const next = key === null ? null : checkSecret(key, 'key');
  webhooksOf(world).rotate(ep, next);
}

/** Replaces the custom delivery headers (Svix rules; names are case-insensitive). */
export function replaceHeaders(world: World, ep: WebhookEndpoint, headers: Record<string, string>): void {
  const seen = new Set<string>();
  for (const [name, value] of Object.entries(headers)) {
    const problem = headerProblem(name, value);
    if (problem) throw webhooksError.invalidField(['body', 'headers', name], problem, value);
    const lower = name.toLowerCase();
    if (seen.has(lower)) throw webhooksError.invalidField(['body', 'headers', name], WEBHOOKS_ERRORS.headerDuplicate, value);
    seen.add(lower);
  }
  ep.headers = { ...headers };
  ep.updated_at = world.clock.iso();
}

/** The management API's view of custom headers: sensitive values hidden (names only). */
export function headersView(ep: WebhookEndpoint): { headers: Record<string, string>; sensitive: string[] } {
  const headers: Record<string, string> = {};
  const sensitive: string[] = [];
  for (const [name, value] of Object.entries(ep.headers)) {
    if (isSensitiveHeader(name)) sensitive.push(name);
    else headers[name] = value;
  }
  return { headers, sensitive };
}

/** Any endpoint by id (control plane: every team). */
function endpointById(world: World, id: string): WebhookEndpoint {
  const ep = webhooksOf(world).endpoint(id);
  if (!ep) throw webhooksError.endpointNotFound();
  return ep;
}

/** Re-delivers one message to one endpoint of its team environment now; answers the attempt. */
export async function resendMessage(world: World, msgId: string, endpointId: string): Promise<AttemptRecord | null> {
  const engine = deliveryOf(world);
  const msg = engine.log.messages.get(msgId);
  if (!msg) throw webhooksError.messageNotFound();
  const ep = endpointById(world, endpointId);
  if (ep.partition_id !== msg.partition_id) throw webhooksError.endpointOtherTeam();
  if (ep.disabled) throw webhooksError.endpointDisabled();
  checkUrl(world, ep.url, ['path', 'endpoint_id']);
  return engine.resend(msg, ep);
}

/** Re-delivers every failed message of an endpoint created in [since, until), oldest first. */
export async function recoverEndpoint(world: World, endpointId: string, since: number, until: number | null): Promise<AttemptRecord[]> {
  const ep = endpointById(world, endpointId);
  const now = world.clock.now();
  const end = until ?? now + 1;
  if (since < now - RECOVER_MAX_WINDOW_MS) throw webhooksError.invalidField(['body', 'since'], WEBHOOKS_ERRORS.recoverTooOld);
  if (end <= since) throw webhooksError.invalidField(['body', 'until'], WEBHOOKS_ERRORS.recoverWindow);
  if (ep.disabled) throw webhooksError.endpointDisabled();
  checkUrl(world, ep.url, ['path', 'endpoint_id']);
  return deliveryOf(world).recover(ep, since, end);
}

/** Delivery settings: jitter, and the retention shared by the log, pipeline streams and receivers. */
export function updateDeliverySettings(world: World, settings: { jitter?: boolean; retention?: number }): void {
  const engine = deliveryOf(world);
  if (settings.jitter !== undefined) engine.jitter = settings.jitter;
  if (settings.retention !== undefined) {
    engine.log.setRetention(settings.retention);
    pipelinesOf(world).setRetention(settings.retention);
    receiversOf(world).setRetention(settings.retention);
  }
}

export function deliverySettings(world: World): { jitter: boolean; retention: number; evicted: number } {
  const engine = deliveryOf(world);
  return { jitter: engine.jitter, retention: engine.log.retention, evicted: engine.log.evicted };
}

const FILE_SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;

/** The NDJSON body's rule (`withRules`, the route's schema): a file name inside the data directory, never a path out of it. */
export function ndjsonNameRule(body: { path: string | null }): RuleFailure | null {
  const name = body.path;
  if (name === null) return null;
  const segments = name.split('/');
  if (name.length > 255 || !segments.every((s) => FILE_SEGMENT.test(s) && s !== '.' && s !== '..'))
    return { path: ['path'], message: WEBHOOKS_ERRORS.ndjsonBadName, input: name };
  return null;
}

/**
 * Sets (or, with null, stops) the NDJSON file every pipeline stream record is appended to: a
 * name inside the data directory given at start, never a path from the request. A probe append
 * proves the file is writable before anything changes.
 */
export async function setNdjsonFile(world: World, name: string | null): Promise<{ ndjson_file: string | null }> {
  const store = pipelinesOf(world);
  if (name === null) {
    store.ndjsonFile = null;
    store.ndjsonError = null;
    return { ndjson_file: null };
  }
  const sink = webhookOptionsOf(world).fileSink;
  if (sink === null) throw webhooksError.ndjsonNoDataDir();
  try {
    await sink.append(name, '');
  } catch (error) {
    throw webhooksError.ndjsonWriteFailed(errorText(error));
  }
  store.ndjsonFile = name;
  store.ndjsonError = null;
  return { ndjson_file: name };
}

/** One page of a team environment's endpoints, oldest first, after the endpoint `cursor` names. */
export function listWebhooks(
  d: Domain,
  cursor: string | undefined,
  limit: number,
): { page: WebhookEndpoint[]; next_cursor: string | null } {
  const { world, partition } = d;
  const all = webhooksOf(world).list(partition.id);
  let start = 0;
  if (cursor !== undefined && cursor !== '') {
    const i = all.findIndex((ep) => ep.id === cursor);
    if (i < 0) throw webhooksError.invalidField(['query', 'next_cursor'], WEBHOOKS_ERRORS.badCursor, cursor);
    start = i + 1;
  }
  const page = all.slice(start, start + limit);
  const more = start + page.length < all.length;
  const last = page[page.length - 1];
  return { page, next_cursor: more && last !== undefined ? last.id : null };
}

/** Every endpoint (control plane), optionally of one team and environment. */
export function allEndpoints(world: World, filter: { team_id?: string | undefined; environment?: string | undefined }): WebhookEndpoint[] {
  const out: WebhookEndpoint[] = [];
  for (const ep of webhooksOf(world).all()) {
    if (filter.team_id !== undefined && ep.team_id !== filter.team_id) continue;
    if (filter.environment !== undefined && ep.environment !== filter.environment) continue;
    out.push(ep);
  }
  return out;
}

/** The receiver configuration's rule (`withRules`, the route's schema): headers HTTP can send (the first broken one is reported). */
export function receiverHeadersRule(body: { headers?: Record<string, string> | undefined }): RuleFailure | null {
  for (const [header, value] of Object.entries(body.headers ?? {})) {
    const problem = headerSyntaxProblem(header, value);
    if (problem) return { path: ['headers', header], message: problem, input: value };
  }
  return null;
}

/** Sets what a test receiver answers (the header syntax is the route schema's rule). */
export function configureReceiver(
  world: World,
  name: string,
  body: {
    status: number;
    body?: unknown;
    retry_after?: number | string | null | undefined;
    headers?: Record<string, string> | undefined;
    times?: number | undefined;
  },
): Receiver {
  const r = receiversOf(world).get(name);
  r.config = {
    status: body.status,
    body: body.body === undefined ? defaultReceiverConfig().body : body.body,
    retry_after: body.retry_after === undefined || body.retry_after === null ? null : String(body.retry_after),
    headers: Object.fromEntries(Object.entries(body.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
    ...(body.times === undefined ? {} : { times: body.times }),
  };
  return r;
}

/** Forgets what a test receiver got and resets its configuration. */
export function clearReceiver(world: World, name: string): void {
  const r = receiversOf(world).get(name);
  r.deliveries = [];
  r.config = defaultReceiverConfig();
}
