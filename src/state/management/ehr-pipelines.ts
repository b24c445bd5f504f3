/**
 * Team EHR pipelines per team environment and EHR type (management OpenAPI `TeamEHRPipeline`,
 * `UpsertTeamEHRPipelinesBody`). A pipeline receives the team's lab results as they arrive:
 * every `labtest.order.updated` event whose last order event's low-level status is `partial_results`, `completed`
 * or `corrected` becomes one record in the pipeline's in-memory destination (`ehrDeliveriesOf`),
 * which the control plane reads. Nothing leaves the process.
 */
import type { z } from 'zod';
import type { Domain } from '../domain-context.js';
import type * as W from '../../wire/schemas.js';
import type { JournalEntry } from '../../engine/events.js';
import type { Environment, Team } from '../../engine/tenancy.js';
import { worldSlot, type World } from '../../engine/world.js';
import { MANAGEMENT_ERRORS, managementError } from './errors.js';
import { dataClass } from '../../engine/world-codec.js';

type EhrType = 'fhir' | 'hint_health';
type EhrAuthentication =
  | { type: 'client_credentials'; client_id: string; client_secret: string; token_url: string }
  | { type: 'google_iam'; service_account_email: string; audience: string }
  | { type: 'api_key'; api_key: string };

interface EhrPipeline {
  team_id: string;
  environment: Environment;
  ehr_type: EhrType;
  base_url: string;
  authentication: EhrAuthentication;
  allowed_mappers: string[] | null;
}

interface EhrDelivery {
  seq: number;
  team_id: string;
  environment: Environment;
  ehr_type: EhrType;
  base_url: string;
  delivered_at: string;
  order_id: string;
  user_id: string;
  result_status: 'partial' | 'final' | 'amended';
  /** What the pipeline sends: a FHIR DiagnosticReport (fhir) or a lab-result document (hint_health). */
  payload: Record<string, unknown>;
}

/** Result stages of an order's last event and what they mean for the EHR. */
const RESULT_STAGES: Record<string, EhrDelivery['result_status']> = {
  partial_results: 'partial',
  completed: 'final',
  corrected: 'amended',
};
/** Records kept per team environment (oldest dropped first). */
const EHR_DELIVERY_RETENTION = 1000;

class EhrPipelineStore {
  /** `team:env` -> ehr type -> pipeline. */
  readonly pipelines = new Map<string, Map<EhrType, EhrPipeline>>();
  /** `team:env` -> deliveries, oldest first. */
  readonly deliveries = new Map<string, EhrDelivery[]>();
  seq = 0;
}
dataClass('EhrPipelineStore', EhrPipelineStore);

const store = worldSlot('management-ehr-pipelines', () => new EhrPipelineStore());
const key = (teamId: string, env: Environment) => `${teamId}:${env}`;

export function ehrPipelineView(p: EhrPipeline): z.input<typeof W.EhrPipeline> {
  const auth =
    p.authentication.type === 'client_credentials' ? { ...p.authentication, client_secret: '**********' } : { ...p.authentication };
  return {
    team_id: p.team_id,
    type: 'native' as const,
    ehr_type: p.ehr_type,
    base_url: p.base_url,
    authentication: auth,
    allowed_mappers: p.allowed_mappers ? [...p.allowed_mappers] : null,
  };
}

/** The team environment's pipelines (one per EHR type). */
export function ehrPipelinesOf(world: World, team: Team, env: Environment): EhrPipeline[] {
  return [...(store(world).pipelines.get(key(team.id, env))?.values() ?? [])];
}

/** Sets each team's pipeline of this EHR type (validated by the handler's schema). */
export function upsertEhrPipelines(
  world: World,
  teams: readonly Team[],
  env: Environment,
  input: Omit<EhrPipeline, 'team_id' | 'environment'>,
): EhrPipeline[] {
  const s = store(world);
  return teams.map((team) => {
    let m = s.pipelines.get(key(team.id, env));
    if (!m) {
      m = new Map();
      s.pipelines.set(key(team.id, env), m);
    }
    const p: EhrPipeline = {
      team_id: team.id,
      environment: env,
      ...input,
      authentication: { ...input.authentication },
      allowed_mappers: input.allowed_mappers ? [...input.allowed_mappers] : null,
    };
    m.set(input.ehr_type, p);
    return p;
  });
}

/** Removes each team's pipeline of this EHR type; answers how many there were. */
export function deleteEhrPipelines(world: World, teams: readonly Team[], env: Environment, ehrType: EhrType): number {
  const s = store(world);
  let n = 0;
  for (const team of teams) {
    const m = s.pipelines.get(key(team.id, env));
    if (m?.delete(ehrType)) n += 1;
    if (m && m.size === 0) s.pipelines.delete(key(team.id, env));
  }
  return n;
}

export function dropEhrPipelines(world: World, teamId: string): void {
  const s = store(world);
  for (const env of ['sandbox', 'production'] as const) s.pipelines.delete(key(teamId, env));
}

/** Whether a team environment has an EHR pipeline that takes events with this prefix (event-bus watcher). */
export function ehrListens(d: Domain, prefix: string): boolean {
  const { world, partition } = d;
  if (!store(world).pipelines.has(key(partition.team.id, partition.environment))) return false;
  return 'labtest.order.updated'.startsWith(prefix) || prefix.startsWith('labtest.order.updated');
}

/** The event-bus subscriber: lab results of teams with pipelines go to each pipeline's destination. */
export function onEhrEvent(d: Domain, entry: JournalEntry): void {
  if (entry.envelope.event_type !== 'labtest.order.updated') return;
  const { world, partition } = d;
  const s = store(world);
  const pipelines = s.pipelines.get(key(partition.team.id, partition.environment));
  if (!pipelines || pipelines.size === 0) return;
  const order = entry.envelope.data as {
    id?: string;
    user_id?: string;
    last_event?: { status?: string };
    lab_test?: { name?: string };
  } | null;
  // Event statuses read `<high>.<method>.<low>` (e.g. `completed.testkit.completed`).
  const low = order?.last_event?.status?.split('.').pop();
  const stage = low ? RESULT_STAGES[low] : undefined;
  if (!order?.id || !stage) return;
  let log = s.deliveries.get(partition.id);
  if (!log) {
    log = [];
    s.deliveries.set(partition.id, log);
  }
  for (const p of pipelines.values()) {
    const payload =
      p.ehr_type === 'fhir'
        ? {
            resourceType: 'DiagnosticReport',
            id: order.id,
            status: stage === 'partial' ? 'partial' : stage === 'amended' ? 'amended' : 'final',
            code: { text: order.lab_test?.name ?? 'Lab test' },
            subject: { reference: `Patient/${entry.envelope.user_id}` },
            issued: entry.occurred_at,
          }
        : { type: 'lab_result', order_id: order.id, patient_id: entry.envelope.user_id, status: stage, issued_at: entry.occurred_at };
    log.push({
      seq: ++s.seq,
      team_id: partition.team.id,
      environment: partition.environment,
      ehr_type: p.ehr_type,
      base_url: p.base_url,
      delivered_at: entry.occurred_at,
      order_id: order.id,
      user_id: entry.envelope.user_id,
      result_status: stage,
      payload,
    });
  }
  if (log.length > EHR_DELIVERY_RETENTION) log.splice(0, log.length - EHR_DELIVERY_RETENTION);
}

/** What a team environment's EHR pipelines received, oldest first (control plane). */
function ehrDeliveriesOf(d: Domain): readonly EhrDelivery[] {
  const { world, partition } = d;
  return store(world).deliveries.get(partition.id) ?? [];
}

/** What the EHR pipelines of a live team's environment received (control plane), or 404. */
export function teamEhrDeliveries(world: World, teamId: string, environment: Environment): readonly EhrDelivery[] {
  const team = world.tenancy.teams.get(teamId);
  if (!team || team.deleted) throw managementError.notFound(MANAGEMENT_ERRORS.teamNotFound);
  return ehrDeliveriesOf({ world, partition: world.tenancy.partition(team, environment) });
}
