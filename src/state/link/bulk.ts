/**
 * Bulk operations on a team environment's connections: import OAuth credentials (each becomes a
 * connection with its historical pull), export them, pause connections, trigger new historical
 * pulls, and the list of bulk operations. Imported credentials are kept and exported as given;
 * connections made otherwise export stable, sandbox-made tokens. Imports run at once and are
 * recorded as finished ops; a historical trigger's op tracks the pulls it started on the clock
 * (`in_progress` with `pending` pulls until the last one finishes; see bulk-progress.ts). The
 * reference's `BulkOp.type` has no pause kind, so pauses are not recorded.
 */
import type { Partition } from '../../engine/tenancy.js';
import { jobKind } from '../../engine/job-kinds.js';
import { providerBySlug, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import { stableToken, stableUuid } from '../../engine/ids.js';
import { partitionSlot } from '../../engine/world.js';
import { usersOf } from '../users/users.js';
import { currentConnections, wearablesOf } from '../wearables/connections.js';
import { connectLinked, hasDemoConnection, pauseConnection, restartHistoricalPull } from '../wearables/wearable-link.js';
import type { Domain } from '../domain-context.js';
import { linkError } from './errors.js';
import { checkScopes } from './scopes.js';
import type { ScopeGrant } from '../wearables/connections.js';
import { bulkPullProgress, type BulkPull } from './bulk-progress.js';
import { dataClass } from '../../engine/world-codec.js';

/** Bulk ops kept per team environment (oldest dropped first). */
const BULK_OP_RETENTION = 500;
const EXPORT_PAGE = 100;

interface ConnectionRecipe {
  user_id: string;
  access_token: string;
  refresh_token: string;
  provider_id: string;
  expires_at: number;
  oauth_scopes?: string[] | null;
}

interface BulkOp {
  type: 'link_bulk_import' | 'link_bulk_historical_trigger';
  status: 'in_progress' | 'success' | 'failure' | 'aborted';
  provider: string;
  pending: number;
  processed: number;
  started_at: string;
  ended_at: string | null;
}

/** A recorded op; a historical trigger keeps the pulls it started (its progress is read from them). */
interface StoredOp extends BulkOp {
  pulls?: BulkPull[];
}

class BulkStore {
  /** `user_id provider` -> imported credentials. */
  readonly recipes = new Map<string, ConnectionRecipe>();
  readonly ops: StoredOp[] = [];
  /** Ops ever recorded (the list cursor is a position in this sequence). */
  dropped = 0;
}
dataClass('BulkStore', BulkStore);

const bulkOf = partitionSlot('link-bulk', () => new BulkStore());
const key = (userId: string, provider: string): string => `${userId} ${provider}`;

function record(store: BulkStore, op: StoredOp): void {
  store.ops.push(op);
  if (store.ops.length > BULK_OP_RETENTION) {
    store.ops.shift();
    store.dropped++;
  }
}

/**
 * Imports credentials: a live user without demo connections whose `oauth_scopes` (when given)
 * include the team's required scopes gets the connection; others fail.
 */
export function bulkImport(
  scope: Domain,
  provider: string,
  recipes: ConnectionRecipe[],
): { user_ids_imported: string[]; user_ids_failed: string[] } {
  const info = providerBySlug(provider);
  if (!info) throw linkError.providerNotFound();
  const users = usersOf(scope.partition, scope.world);
  const ok: Array<ConnectionRecipe & { grant: ScopeGrant | undefined }> = [];
  const failed: string[] = [];
  for (const r of recipes) {
    const user = users.liveUser(r.user_id);
    // Given `oauth_scopes` are the user's grant: the team's required scopes must be among them.
    const scopes = checkScopes(scope, info, r.oauth_scopes ?? null);
    if (!user || !scopes.ok || hasDemoConnection(scope, r.user_id) || ok.some((o) => o.user_id === r.user_id)) failed.push(r.user_id);
    else ok.push({ ...r, grant: scopes.grant });
  }
  const store = bulkOf(scope.partition, scope.world);
  for (const { grant, ...r } of ok) {
    connectLinked(scope, r.user_id, info, grant);
    store.recipes.set(key(r.user_id, provider), { ...r, oauth_scopes: r.oauth_scopes ?? null });
  }
  const now = new Date(scope.world.clock.now()).toISOString();
  record(store, {
    type: 'link_bulk_import',
    status: failed.length === 0 ? 'success' : ok.length === 0 ? 'failure' : 'success',
    provider,
    pending: 0,
    processed: recipes.length,
    started_at: now,
    ended_at: now,
  });
  return { user_ids_imported: ok.map((r) => r.user_id), user_ids_failed: failed };
}

/** Applies `act` to each distinct listed user that is live in this team environment; the rest fail. */
function eachUser(
  scope: Domain,
  provider: string,
  userIds: string[],
  act: (userId: string, info: ProviderInfo) => boolean,
): { done: string[]; failed: string[] } {
  const info = providerBySlug(provider);
  if (!info) throw linkError.providerNotFound();
  const users = usersOf(scope.partition, scope.world);
  const done: string[] = [];
  const failed: string[] = [];
  const seen = new Set<string>();
  for (const id of userIds) {
    if (seen.has(id)) continue;
    seen.add(id);
    // Unknown, deleted and other teams' users fail alike (ids are looked up in this partition only).
    if (users.liveUser(id) && act(id, info)) done.push(id);
    else failed.push(id);
  }
  return { done, failed };
}

/**
 * Pauses the provider's connections of the listed users (de-registered, marked `paused`: no new
 * data, no pulls, the user reconnects through Link). Users without a connection to pause fail.
 */
export function bulkPause(scope: Domain, provider: string, userIds: string[]): { user_ids_paused: string[]; user_ids_failed: string[] } {
  const { done, failed } = eachUser(scope, provider, userIds, (id, info) => pauseConnection(scope, id, info));
  return { user_ids_paused: done, user_ids_failed: failed };
}

/**
 * Starts a new historical pull of the provider for each listed user with a working connection
 * (on the clock; `historical.data.*.created` as each resource finishes); records the op. Users
 * whose pull cannot start are processed at once; the others stay `pending` until their pull
 * finishes. An op none of whose pulls started is a finished `failure`.
 */
export function bulkTriggerHistoricalPull(scope: Domain, provider: string, userIds: string[]): BulkOp {
  const at = scope.world.clock.now();
  const pulls: BulkPull[] = [];
  const { done } = eachUser(scope, provider, userIds, (id, info) => {
    if (!restartHistoricalPull(scope, id, info)) return false;
    pulls.push({ user_id: id, created_at: at });
    return true;
  });
  const now = new Date(at).toISOString();
  const op: StoredOp = {
    type: 'link_bulk_historical_trigger',
    status: userIds.length > 0 && done.length === 0 ? 'failure' : 'success',
    provider,
    pending: 0,
    processed: new Set(userIds).size,
    started_at: now,
    ended_at: now,
    pulls,
  };
  record(bulkOf(scope.partition, scope.world), op);
  if (pulls.length > 0) settleWhenDone(scope, op);
  return opView(scope, op);
}

/** Schedules the op's settlement at the planned end of its last running pull (again if that moved). */
function settleWhenDone(scope: Domain, op: StoredOp): void {
  const { world, partition } = scope;
  if (!op.pulls) return;
  const progress = bulkPullProgress({ world, partition }, op.provider, op.pulls, world.clock.now());
  if (progress.plannedEnd !== null) {
    world.scheduler.at(progress.plannedEnd, BULK_OP_CHECK, { partition, op }, `link.bulk_op ${op.started_at} ${op.provider}`);
    return;
  }
  const started = Date.parse(op.started_at);
  op.ended_at = new Date(Math.max(progress.lastEnd ?? started, started)).toISOString();
  delete op.pulls;
}

/** A bulk op's pulls were planned to end now: it settles, or waits again if they moved. */
const BULK_OP_CHECK = jobKind<{ partition: Partition; op: StoredOp }>('link.bulk_op', (world, { partition, op }) =>
  settleWhenDone({ world, partition }, op),
);

/**
 * An op as the API shows it at the current time: a trigger with pulls still running is
 * `in_progress`, `pending` of them, `ended_at` null; once all finished, its final status and the
 * time the last one ended.
 */
function opView(scope: Domain, op: StoredOp): BulkOp {
  const { pulls, ...base } = op;
  if (!pulls || pulls.length === 0) return base;
  const { pending, lastEnd } = bulkPullProgress(scope, op.provider, pulls, scope.world.clock.now());
  if (pending > 0) return { ...base, status: 'in_progress', pending, processed: base.processed - pending, ended_at: null };
  // All finished, not settled yet (the settling job runs at the planned end; a forced end came earlier).
  const started = Date.parse(base.started_at);
  return { ...base, pending: 0, ended_at: new Date(Math.max(lastEnd ?? started, started)).toISOString() };
}

/** Exports the credentials of the provider's current connections (optionally of some users), 100 a page. */
export function bulkExport(
  scope: Domain,
  provider: string,
  userIds: string[] | null,
  nextToken: string | null,
): { data: ConnectionRecipe[]; next_token: string | null } {
  const info = providerBySlug(provider);
  if (!info) throw linkError.providerNotFound();
  const start = nextToken === null ? 0 : Number(nextToken);
  if (!Number.isInteger(start) || start < 0) throw linkError.badNextToken();
  const users = usersOf(scope.partition, scope.world);
  const candidates = userIds ? userIds.map((id) => users.liveUser(id)).filter((u) => u !== undefined) : users.all();
  const state = wearablesOf(scope.world);
  const store = bulkOf(scope.partition, scope.world);
  const data: ConnectionRecipe[] = [];
  let i = start;
  for (; i < candidates.length && data.length < EXPORT_PAGE; i++) {
    const user = candidates[i];
    if (!user) continue;
    const conn = currentConnections(state.get(scope.partition, user.user_id)).find((c) => c.provider === info);
    if (!conn || conn.demo) continue;
    const seed = scope.world.seed;
    data.push(
      store.recipes.get(key(user.user_id, provider)) ?? {
        user_id: user.user_id,
        access_token: stableToken(40, seed, 'bulk.access', user.user_id, provider, conn.created_at),
        refresh_token: stableToken(40, seed, 'bulk.refresh', user.user_id, provider, conn.created_at),
        provider_id: stableUuid(seed, 'bulk.provider_id', user.user_id, provider),
        expires_at: Math.floor(conn.created_at / 1000) + 30 * 24 * 3600,
        oauth_scopes: null,
      },
    );
  }
  return { data, next_token: i < candidates.length ? String(i) : null };
}

/** The team environment's bulk ops, newest first, `page_size` a page. */
export function listBulkOps(scope: Domain, cursor: string | null, pageSize: number): { data: BulkOp[]; next_cursor: string | null } {
  const store = bulkOf(scope.partition, scope.world);
  const newest = store.ops.length - 1;
  const from = cursor === null ? newest : Number(cursor) - store.dropped;
  if (cursor !== null && (!Number.isInteger(Number(cursor)) || from > newest)) throw linkError.badNextToken();
  const data: BulkOp[] = [];
  let i = from;
  for (; i >= 0 && data.length < pageSize; i--) data.push(opView(scope, store.ops[i] as StoredOp));
  return { data, next_cursor: i >= 0 && pageSize > 0 ? String(i + store.dropped) : null };
}
