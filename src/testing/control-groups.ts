/**
 * The lab and webhook controls of the control client (`control.labs.*`, `control.webhooks.*`):
 * thin typed calls of the control routes, each answering what its route answers (types from
 * `./types.ts`). Every method is async: bad input is a rejected promise (a ControlError carrying
 * the control plane's 4xx), never a synchronous throw.
 */
import type {
  ControlEndpointList,
  DeliveryAttemptPage,
  DeliveryMessageDetail,
  DeliveryMessagePage,
  DeliverySettings,
  LabLifecycle,
  TeamLabsSettings,
  LabScenarios,
  OperationalEvents,
  RecoverDone,
  ResendDone,
} from './types.js';

/** Sends one control request and answers the parsed body (throws ControlError on a 3xx to 5xx). */
export type Requester = <T>(method: string, path: string, body?: unknown) => Promise<T>;

/** A path segment, escaped. */
export const seg = (value: string): string => encodeURIComponent(value);

/** `?a=1&b=x` from the defined entries of a filter ('' when none). */
export function queryOf(filter: object | undefined): string {
  const entries = Object.entries(filter ?? {}).filter(([, v]) => v !== undefined && v !== null);
  const query = new URLSearchParams(entries.map(([k, v]) => [k, String(v)]));
  return query.size ? `?${query}` : '';
}

type Environment = 'sandbox' | 'production';

export interface EndpointFilter {
  team_id?: string;
  environment?: Environment;
}

export interface MessageFilter extends EndpointFilter {
  endpoint_id?: string;
  event_type?: string;
  status?: 'pending' | 'sending' | 'success' | 'failed';
  /** Page on: the `next_after` of the previous page. */
  after?: number;
  /** 1 to 1000 (default 100). */
  limit?: number;
}

export interface AttemptFilter extends EndpointFilter {
  endpoint_id?: string;
  msg_id?: string;
  event_type?: string;
  status?: 'success' | 'failed';
  trigger?: 'scheduled' | 'manual';
  after?: number;
  limit?: number;
}

export interface LabControls {
  /** Per method: statuses with their high-level status, the paths of each fate with step times, the cancellable statuses. */
  lifecycle(): Promise<LabLifecycle>;
  /** The scenario hints: patient zip codes that choose a fate, last names that shape results. */
  scenarios(): Promise<LabScenarios>;
  /** How a team's lab orders move: `clock` (on the sandbox clock) or `manual` (only when simulated, as the real sandbox). */
  progression(teamId: string): Promise<TeamLabsSettings>;
  /** Sets a team's lab order progression. */
  setProgression(teamId: string, progression: 'clock' | 'manual'): Promise<TeamLabsSettings>;
}

export interface WebhookControls {
  /** Every webhook endpoint with its team, environment and delivery state. */
  endpoints(filter?: EndpointFilter): Promise<ControlEndpointList>;
  /** Messages, oldest first, with each destination's status. */
  messages(filter?: MessageFilter): Promise<DeliveryMessagePage>;
  /** One message with its destinations and every attempt. */
  message(msgId: string): Promise<DeliveryMessageDetail>;
  /** Delivery attempts, oldest first. */
  attempts(filter?: AttemptFilter): Promise<DeliveryAttemptPage>;
  /** Re-delivers one message to one endpoint now (a manual attempt, not retried). */
  resend(msgId: string, endpointId: string): Promise<ResendDone>;
  /** Re-delivers every failed message of an endpoint created in [since, until). */
  recover(endpointId: string, window: { since: string; until?: string | null }): Promise<RecoverDone>;
  /** The delivery settings: jitter, retention, evicted. */
  settings(): Promise<DeliverySettings>;
  /** Changes the delivery settings (retry jitter on or off, retention per team environment). */
  updateSettings(settings: { jitter?: boolean; retention?: number }): Promise<DeliverySettings>;
  /** What Svix would tell the service: message.attempt.failing / exhausted / recovered, endpoint.disabled. */
  operationalEvents(filter?: { endpoint_id?: string; type?: string }): Promise<OperationalEvents>;
}

export function labControls(request: Requester): LabControls {
  return {
    lifecycle: async () => request('GET', '/_sandbox/labs/lifecycle'),
    scenarios: async () => request('GET', '/_sandbox/labs/scenarios'),
    progression: async (teamId) => request('GET', `/_sandbox/teams/${seg(teamId)}/labs`),
    setProgression: async (teamId, progression) => request('PUT', `/_sandbox/teams/${seg(teamId)}/labs`, { progression }),
  };
}

export function webhookControls(request: Requester): WebhookControls {
  const base = '/_sandbox/webhooks';
  return {
    endpoints: async (filter) => request('GET', `${base}/endpoints${queryOf(filter)}`),
    messages: async (filter) => request('GET', `${base}/messages${queryOf(filter)}`),
    message: async (msgId) => request('GET', `${base}/messages/${seg(msgId)}`),
    attempts: async (filter) => request('GET', `${base}/attempts${queryOf(filter)}`),
    resend: async (msgId, endpointId) => request('POST', `${base}/messages/${seg(msgId)}/endpoints/${seg(endpointId)}/resend`),
    recover: async (endpointId, window) => request('POST', `${base}/endpoints/${seg(endpointId)}/recover`, window),
    settings: async () => request('GET', `${base}/settings`),
    updateSettings: async (settings) => request('PUT', `${base}/settings`, settings),
    operationalEvents: async (filter) => request('GET', `${base}/operational-events${queryOf(filter)}`),
  };
}
