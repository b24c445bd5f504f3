/**
 * Team-level reads of the data API: user search by id or client_user_id, the physicians of the
 * team's lab orders, and source priorities (which provider wins when several supply one kind
 * of data), kept per team environment.
 */
import { PROVIDERS, providerBrief, providerBySlug } from '../../fixtures/wearables/providers.js';
import type { Domain } from '../domain-context.js';
import { partitionSlot } from '../../engine/world.js';
import type { RuleFailure } from '../../engine/schemas.js';
import { ordersOf } from '../labs/order-store.js';
import { rowByResource } from '../../fixtures/wearables/timeseries-table.js';
import { usersOf, type User } from './users.js';
import { USERS_ERRORS, usersError } from './errors.js';

export const PRIORITY_RESOURCES = ['workouts', 'activity', 'sleep', 'body', 'timeseries'] as const;
type PriorityResource = (typeof PRIORITY_RESOURCES)[number];

/** Users whose user_id or client_user_id is `query` (live users only). */
/** The caller's own team when the path names it; a team API key reads only its own team (403). */
export function requireOwnTeam(scope: Domain, teamId: string): Domain['partition']['team'] {
  if (teamId !== scope.partition.team.id) throw usersError.otherTeam();
  return scope.partition.team;
}

export function searchUsers(scope: Domain, query: string): User[] {
  const users = usersOf(scope.partition, scope.world);
  const out: User[] = [];
  const byId = users.liveUser(query);
  if (byId) out.push(byId);
  const clientId = users.clientIdHolder(query);
  const byClient = clientId ? users.liveUser(clientId) : undefined;
  if (byClient && byClient !== byId) out.push(byClient);
  return out;
}

/** The distinct physicians named on the team environment's lab orders, by NPI, first seen first. */
export function teamPhysicians(scope: Domain): Array<{ first_name: string; last_name: string; npi: string }> {
  const seen = new Map<string, { first_name: string; last_name: string; npi: string }>();
  for (const order of ordersOf(scope).all()) {
    const p = order.physician;
    if (p && !seen.has(p.npi)) seen.set(p.npi, { first_name: p.first_name, last_name: p.last_name, npi: p.npi });
  }
  return [...seen.values()];
}

/** Default order: the catalogue's providers that supply the resource, in catalogue order. */
function defaults(resource: PriorityResource): string[] {
  return PROVIDERS.filter((p) => resource === 'timeseries' || p.resources.includes(resource)).map((p) => p.slug);
}

const prioritiesOf = partitionSlot('source-priorities', () => new Map<PriorityResource, string[]>());

interface PriorityEntry {
  data_type: PriorityResource;
  provider: { name: string; slug: string; logo: string };
  priority: number;
}

/** Source priorities, 1 = preferred; one data type or all. */
export function sourcePriorities(scope: Domain, dataType: PriorityResource | null): PriorityEntry[] {
  const store = prioritiesOf(scope.partition, scope.world);
  const out: PriorityEntry[] = [];
  for (const resource of dataType ? [dataType] : PRIORITY_RESOURCES) {
    const order = store.get(resource) ?? defaults(resource);
    order.forEach((slug, i) => {
      const p = providerBySlug(slug);
      if (p) out.push({ data_type: resource, provider: providerBrief(p), priority: i + 1 });
    });
  }
  return out;
}

/** The update body's rule (`withRules`): every provider supplies its data type (the first one that does not is reported). */
export function sourcePrioritiesRule(changes: Array<{ data_type: PriorityResource; providers: string[] }>): RuleFailure | null {
  for (const [i, c] of changes.entries()) {
    for (const [j, slug] of c.providers.entries()) {
      if (!providerBySlug(slug) || !defaults(c.data_type).includes(slug))
        return { path: [i, 'providers', j], message: USERS_ERRORS.notSupplied(slug, c.data_type), input: slug };
    }
  }
  return null;
}

/**
 * Moves the listed providers to the front of each data type's order, in the order given
 * (every entry checked before any is applied); answers the full list.
 */
export function updateSourcePriorities(
  scope: Domain,
  changes: Array<{ data_type: PriorityResource; providers: string[] }>,
): PriorityEntry[] {
  const store = prioritiesOf(scope.partition, scope.world);
  for (const c of changes) {
    const current = store.get(c.data_type) ?? defaults(c.data_type);
    const front = [...new Set(c.providers)];
    store.set(c.data_type, [...front, ...current.filter((s) => !front.includes(s))]);
  }
  return sourcePriorities(scope, null);
}

/** The priority data type a resource's data belongs to (summaries by name, every timeseries as `timeseries`). */
function priorityTypeOf(resource: string): PriorityResource | null {
  if ((PRIORITY_RESOURCES as readonly string[]).includes(resource) && resource !== 'timeseries') return resource as PriorityResource;
  return rowByResource(resource) || resource === 'electrocardiogram_voltage' ? 'timeseries' : null;
}

/**
 * The team environment's source order for a resource's data type, as a rank per provider slug
 * (0 = preferred), or null while the team keeps the default order (the catalogue's).
 */
export function customSourceOrder(d: Domain, resource: string): ReadonlyMap<string, number> | null {
  const { world, partition } = d;
  const type = priorityTypeOf(resource);
  const order = type ? prioritiesOf(partition, world).get(type) : undefined;
  return order ? new Map(order.map((slug, i) => [slug, i])) : null;
}
