/**
 * The page of (user, connections) the introspection routes show (`GET /v2/introspect/*`):
 * the caller's live users with connections, oldest first, from the cursor's creation sequence.
 */
import type { Partition } from '../../engine/tenancy.js';
import type { World } from '../../engine/world.js';
import { usersOf, type User } from '../users/users.js';
import type { Connection } from './connections.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { connectionsOf } from './operations.js';
import { checkProvider } from './wearable-data.js';

const SCAN_LIMIT = 5000;
/** `user_limit` is an upper bound (api-facts A.17): larger values are served as this many. */
const MAX_USER_LIMIT = 1000;

interface IntrospectQuery {
  user_id?: string | null | undefined;
  provider?: string | null | undefined;
  user_limit: number;
  cursor?: string | null | undefined;
  next_cursor?: string | null | undefined;
}

/** The page of (user, connections) a query selects. */
export function introspectPage(
  world: World,
  partition: Partition,
  q: IntrospectQuery,
): { rows: Array<{ user: User; conns: Connection[] }>; next: string | null } {
  if (q.provider) checkProvider(q.provider, 'query', true);
  const fromSeq = decodeCursor('u', q.next_cursor, 'next_cursor') || decodeCursor('u', q.cursor, 'cursor') || 0;
  const store = usersOf(partition, world);
  const select = (user: User): Connection[] => connectionsOf(world, partition, user.user_id, q.provider);
  if (q.user_id) {
    const user = store.liveUser(q.user_id);
    const conns = user ? select(user) : [];
    return { rows: user && conns.length ? [{ user, conns }] : [], next: null };
  }
  const all = store.all();
  const lo = store.liveIndexFrom(fromSeq);
  const rows: Array<{ user: User; conns: Connection[] }> = [];
  let i = lo;
  for (; i < all.length && i - lo < SCAN_LIMIT; i++) {
    const user = all[i] as User;
    const conns = select(user);
    if (!conns.length) continue;
    if (rows.length === Math.min(q.user_limit, MAX_USER_LIMIT)) break;
    rows.push({ user, conns });
  }
  const nextUser = all[i];
  return { rows, next: nextUser ? encodeCursor('u', nextUser.seq) : null };
}
