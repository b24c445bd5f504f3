/**
 * Management keys (spec 5; management OpenAPI `CreateManagementKeyBody`, `PatchManagementKeyBody`):
 * list, create (`org_admin`, or `team_admin` bound to live teams of the org), update (label,
 * bindings of team keys) and delete. Every rule is checked before anything changes.
 */
import type { ValidationItem } from '../../engine/errors.js';
import type { ManagementKey, ManagementRole, Org } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { managementError, MANAGEMENT_KEY_MESSAGES } from './errors.js';

type Bindings = Array<{ team_id: string }> | null | undefined;

/** The distinct team ids of bindings, each a live team of the org (422 naming every bad one). */
function boundTeamIds(world: World, org: Org, list: Array<{ team_id: string }>): string[] {
  const items: ValidationItem[] = [];
  const out: string[] = [];
  list.forEach((b, i) => {
    const team = world.tenancy.teams.get(b.team_id);
    if (!team || team.org_id !== org.id) {
      const message = MANAGEMENT_KEY_MESSAGES.notATeam(b.team_id);
      items.push({
        type: 'value_error',
        loc: ['body', 'team_role_bindings', i, 'team_id'],
        msg: `Value error, ${message}`,
        input: b.team_id,
        ctx: { error: message },
      });
    } else if (!out.includes(b.team_id)) {
      out.push(b.team_id);
    }
  });
  if (items.length > 0) throw managementError.invalidItems(items);
  return out;
}

function findManagementKey(world: World, org: Org, keyId: string): ManagementKey | undefined {
  const key = world.tenancy.managementKeysById.get(keyId);
  return key && key.org_id === org.id ? key : undefined;
}

export function listManagementKeys(
  world: World,
  org: Org,
  filter: { role?: ManagementRole | null; team_id?: string | null },
): ManagementKey[] {
  return world.tenancy
    .orgManagementKeys(org.id)
    .filter(
      (k) =>
        (!filter.role || k.role === filter.role) &&
        (!filter.team_id || (k.role === 'team_admin' && (k.team_ids ?? []).includes(filter.team_id))),
    );
}

/**
 * Body rule (`withRules`) of the key create route: a team key names its teams, an org key none.
 * `createManagementKey` relies on it.
 */
export const bindingsForRoleRule = (b: { role: ManagementRole; team_role_bindings?: Bindings }) => {
  const list = b.team_role_bindings ?? [];
  if (b.role === 'team_admin' && list.length === 0)
    return { path: ['team_role_bindings'], message: MANAGEMENT_KEY_MESSAGES.teamAdminNeedsBindings, input: b.team_role_bindings ?? null };
  if (b.role !== 'team_admin' && list.length > 0)
    return { path: ['team_role_bindings'], message: MANAGEMENT_KEY_MESSAGES.orgAdminCreateNoBindings, input: b.team_role_bindings };
  return undefined;
};

export function createManagementKey(
  world: World,
  org: Org,
  input: { label: string; role: ManagementRole; team_role_bindings?: Bindings },
  now: string,
): ManagementKey {
  const list = input.team_role_bindings ?? [];
  let teamIds: string[] | null = null;
  if (input.role === 'team_admin') teamIds = boundTeamIds(world, org, list);
  return world.tenancy.addManagementKey({
    id: world.ids.uuid('management-key', org.id),
    org_id: org.id,
    label: input.label,
    key: `mg_${world.ids.token('management-key-secret', 40, org.id)}`,
    role: input.role,
    team_ids: teamIds,
    created_at: now,
    creator: { type: 'management_key' },
  });
}

/** Changes the label and, for team keys, the bindings (null keeps a value). */
export function updateManagementKey(
  world: World,
  org: Org,
  keyId: string,
  update: { label?: string | null; team_role_bindings?: Bindings },
): ManagementKey {
  const key = findManagementKey(world, org, keyId);
  if (!key) throw managementError.notFound(MANAGEMENT_KEY_MESSAGES.notFound);
  let teamIds: string[] | undefined;
  const b = update.team_role_bindings;
  if (b !== null && b !== undefined) {
    if (key.role === 'org_admin')
      throw managementError.invalid(['body', 'team_role_bindings'], MANAGEMENT_KEY_MESSAGES.orgAdminNoBindings, b);
    if (b.length === 0) throw managementError.invalid(['body', 'team_role_bindings'], MANAGEMENT_KEY_MESSAGES.teamAdminNeedsBindings, b);
    teamIds = boundTeamIds(world, org, b);
  }
  if (update.label !== null && update.label !== undefined) key.label = update.label;
  if (teamIds) key.team_ids = teamIds;
  return key;
}

/** Deletes a key (it stops working at once); undefined when the org has no such key. */
export function deleteManagementKey(world: World, org: Org, keyId: string): ManagementKey | undefined {
  const key = findManagementKey(world, org, keyId);
  if (key) world.tenancy.removeManagementKey(key.id);
  return key;
}
