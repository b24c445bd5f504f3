/**
 * What the inspector reads from the sandbox, typed as the page uses it: every field that a world
 * may leave empty is optional or nullable, so the compiler makes each view handle its absence.
 */

export interface Team {
  name: string;
  team_id: string;
  region?: string | null;
  api_keys: { sandbox: string; production: string };
}

export interface Credentials {
  base_url: string;
  management_url: string;
  org_id: string;
  management_key: string;
  teams: Team[];
}

export interface Clock {
  now: string;
  mode: string;
  scale?: number | null;
}

export interface NearMiss {
  method: string;
  path: string;
  surface?: string | null;
  kind?: string | null;
  hint?: string | null;
  route_id?: string | null;
}

export interface JournalRequest {
  id: string;
  seq: number;
  sandbox_time: string;
  wall_time?: string | null;
  duration_ms: number;
  method: string;
  surface?: string | null;
  path: string;
  query?: string | null;
  route_id?: string | null;
  team_id?: string | null;
  environment?: string | null;
  /** null when a fault dropped the connection (`dropped`). */
  status: number | null;
  dropped?: boolean;
  fault_id?: string | null;
  /** What a fault did, in words that outlive the rule (`rule`), with the wait the client saw. */
  fault?: { id: string; rule: string; action: string; status: number | null; latency_ms: number | null } | null;
  invalid?: Array<Array<string | number>> | null;
  near_misses?: NearMiss[] | null;
  request: { headers: Record<string, string>; content_type?: string | null; body: string | null; body_bytes: number };
  response: { content_type?: string | null; body: string | null; body_bytes: number };
}

export interface RequestPage {
  requests: JournalRequest[];
  size: number;
  recorded: number;
  bodies: boolean;
}

export interface EventEnvelope {
  event_type: string;
  user_id?: string | null;
  client_user_id?: string | null;
  team_id?: string | null;
  data?: Record<string, unknown> | null;
}

export interface EventEntry {
  seq: number;
  occurred_at: string;
  team_id: string;
  environment: string;
  envelope: EventEnvelope;
}

export interface Destination {
  endpoint_id?: string | null;
  status?: string | null;
}

export interface WebhookMessage {
  id: string;
  event_type: string;
  user_id?: string | null;
  created_at: string;
  payload?: unknown;
  destinations: Destination[];
}

export interface Attempt {
  attempt_number: number;
  trigger: string;
  status: string;
  created_at: string;
  latency_ms?: number | null;
  next_attempt_at?: string | null;
  request?: unknown;
  response?: { status?: number | null } | null;
  error?: string | null;
}

export interface Endpoint {
  id: string;
  url: string;
  filter_types?: string[] | null;
  disabled?: boolean | null;
  created_at: string;
}

export interface Receiver {
  name: string;
  count: number;
  deliveries: Array<{ received_at: string; event_type?: string | null; verified?: boolean | null; answered_status?: number | null }>;
}

export interface User {
  user_id: string;
  client_user_id: string;
  created_on?: string | null;
  connected_sources?: Array<{ provider?: { slug?: string | null } | null }> | null;
}

export interface Provider {
  slug: string;
  name?: string | null;
  status?: string | null;
  created_on?: string | null;
  error_details?: unknown;
}

export interface PulledResource {
  status?: string | null;
  range_start?: string | null;
  range_end?: string | null;
  error_details?: unknown;
  timeline?: { scheduled_at?: string | null; started_at?: string | null; ended_at?: string | null } | null;
}

export interface HistoricalPull {
  user_id?: string;
  provider?: Record<string, { pulled?: Record<string, PulledResource> | null } | null> | null;
}

export interface OrderEvent {
  created_at: string;
  status: string;
  status_detail?: string | null;
}

export interface Order {
  id: string;
  user_id?: string | null;
  status?: string | null;
  created_at?: string | null;
  updated_at?: string | null;
  patient_details?: { first_name?: string | null; last_name?: string | null } | null;
  lab_test?: { name?: string | null; method?: string | null } | null;
  last_event?: OrderEvent | null;
  events?: OrderEvent[] | null;
  details?: { type?: string | null; data?: { appointment_id?: string | null } | null } | null;
}

export interface ResultMarker {
  name?: string | null;
  result?: unknown;
  value?: unknown;
  unit?: string | null;
  min_range_value?: number | null;
  max_range_value?: number | null;
  interpretation?: string | null;
}

export interface FaultRule {
  id: string;
  match: Record<string, unknown>;
  action: Record<string, unknown>;
  times?: number | null;
  remaining?: number | null;
  matched: number;
  fired: number;
}

export interface Snapshot {
  name: string;
  now: string;
  seed: number;
  inputs: number;
}

export interface EcgSummary {
  session_start: string;
  session_end: string;
  classification?: string | null;
  heart_rate_mean?: number | null;
  sampling_frequency_hz?: number | null;
  source_provider?: string | null;
  voltage_sample_count?: number | null;
}
