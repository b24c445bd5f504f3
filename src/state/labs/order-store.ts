/**
 * The lab order store of one team environment: orders by id, and the indexes every read goes
 * through (user, sample id, transaction, current status, creation time, critical results) so a
 * lookup or a listing never scans the partition. The listing indexes (all orders, per status, per
 * user, critical) are kept in creation order (order-index.ts). Only the labs domain functions change it,
 * through its methods; nothing outside this file touches its Maps.
 */
import { partitionSlot } from '../../engine/world.js';
import type { LowStatus } from './order-lifecycle.js';
import { CreationIndex } from './order-index.js';
import { currentStatus, type IdempotentReply, type Order, type OrderEvent, type ResultSummary, type Transaction } from './order-model.js';
import type { Domain } from '../domain-context.js';
import { dataClass } from '../../engine/world-codec.js';

/** Idempotency keys remembered per team environment within their TTL (the oldest go first). */
export const MAX_IDEMPOTENCY_KEYS = 10_000;

export class OrderStore {
  private readonly byIdMap = new Map<string, Order>();
  private readonly byUserMap = new Map<string, Order[]>();
  private readonly bySampleMap = new Map<string, Order>();
  private readonly transactionMap = new Map<string, Transaction>();
  private readonly byStatusMap = new Map<LowStatus, CreationIndex>();
  private readonly userCreatedMap = new Map<string, CreationIndex>();
  private readonly criticalSet = new Set<Order>();
  private readonly criticalIndex = new CreationIndex();
  /** Insertion order. */
  private readonly list: Order[] = [];
  private readonly createdIndex = new CreationIndex();
  private readonly idempotency = new Map<string, IdempotentReply>();
  private eventSeq = 0;
  private orderSeq = 0;

  nextEventId(): number {
    return ++this.eventSeq;
  }

  nextSeq(): number {
    return ++this.orderSeq;
  }

  get size(): number {
    return this.list.length;
  }

  all(): readonly Order[] {
    return this.list;
  }

  get(id: string): Order | undefined {
    return this.byIdMap.get(id);
  }

  bySample(sampleId: string): Order | undefined {
    return this.bySampleMap.get(sampleId);
  }

  ofUser(userId: string): readonly Order[] {
    return this.byUserMap.get(userId) ?? [];
  }

  transaction(id: string): Transaction | undefined {
    return this.transactionMap.get(id);
  }

  /** Orders whose current status is `status`, in creation order. */
  withStatus(status: LowStatus): CreationIndex | undefined {
    return this.byStatusMap.get(status);
  }

  /** Orders whose results hold a value beyond its critical limit, in creation order. */
  critical(): CreationIndex {
    return this.criticalIndex;
  }

  /** Every order in creation order (created_at, then seq). */
  created(): CreationIndex {
    return this.createdIndex;
  }

  /** A user's orders in creation order. */
  createdOfUser(userId: string): CreationIndex | undefined {
    return this.userCreatedMap.get(userId);
  }

  add(order: Order): void {
    this.byIdMap.set(order.id, order);
    this.list.push(order);
    this.pushTo(this.byUserMap, order.user_id, order);
    this.bySampleMap.set(order.sample_id, order);
    const tx = this.transactionMap.get(order.transaction_id);
    if (tx) tx.orders.push(order);
    else this.transactionMap.set(order.transaction_id, { id: order.transaction_id, team_id: order.team_id, orders: [order] });
    this.createdIndex.add(order);
    this.indexOf(this.userCreatedMap, order.user_id).add(order);
    this.indexOf(this.byStatusMap, currentStatus(order)).add(order);
    if (order.summary?.hasCritical) this.markCritical(order, true);
  }

  /** Appends a status change to an order and keeps the status index in step. */
  pushEvent(order: Order, event: OrderEvent): void {
    const known = this.byIdMap.get(order.id) === order;
    const before = currentStatus(order);
    order.events.push(event);
    if (!known || before === event.status) return;
    this.byStatusMap.get(before)?.remove(order);
    this.indexOf(this.byStatusMap, event.status).add(order);
  }

  /** Records the summary of an order's results (null: it has none) and keeps the critical index. */
  setSummary(order: Order, summary: ResultSummary | null): void {
    order.summary = summary;
    this.markCritical(order, summary?.hasCritical === true && this.byIdMap.get(order.id) === order);
  }

  private markCritical(order: Order, critical: boolean): void {
    if (critical === this.criticalSet.has(order)) return;
    if (critical) {
      this.criticalSet.add(order);
      this.criticalIndex.add(order);
    } else {
      this.criticalSet.delete(order);
      this.criticalIndex.remove(order);
    }
  }

  /** Moves an order to another user of the team (testkit registration). */
  reassignUser(order: Order, userId: string, clientUserId: string): void {
    const previous = this.byUserMap.get(order.user_id);
    if (previous)
      this.byUserMap.set(
        order.user_id,
        previous.filter((o) => o !== order),
      );
    this.userCreatedMap.get(order.user_id)?.remove(order);
    order.user_id = userId;
    this.indexOf(this.userCreatedMap, userId).add(order);
    order.client_user_id = clientUserId;
    this.pushTo(this.byUserMap, userId, order);
  }

  /** Removes every order of a user (purge). */
  removeUser(userId: string): void {
    const mine = this.byUserMap.get(userId);
    if (!mine) return;
    const gone = new Set(mine);
    for (const order of mine) {
      order.job?.cancel();
      order.job = null;
      this.byIdMap.delete(order.id);
      this.bySampleMap.delete(order.sample_id);
      this.criticalSet.delete(order);
      const tx = this.transactionMap.get(order.transaction_id);
      if (tx) {
        tx.orders = tx.orders.filter((o) => o !== order);
        if (tx.orders.length === 0) this.transactionMap.delete(tx.id);
      }
    }
    this.byUserMap.delete(userId);
    this.userCreatedMap.delete(userId);
    for (let i = this.list.length - 1; i >= 0; i--) if (gone.has(this.list[i] as Order)) this.list.splice(i, 1);
    this.createdIndex.removeAll(gone);
    this.criticalIndex.removeAll(gone);
    for (const status of new Set(mine.map(currentStatus))) this.byStatusMap.get(status)?.removeAll(gone);
  }

  /** A stored answer for an idempotency key still within `ttl` of `now`. */
  replay(key: string, now: number, ttl: number): IdempotentReply | undefined {
    const stored = this.idempotency.get(key);
    return stored && now - stored.at < ttl ? stored : undefined;
  }

  /**
   * Stores an answer for an idempotency key and drops the expired ones, and the oldest past
   * MAX_IDEMPOTENCY_KEYS (docs/simulated/labs.md).
   */
  remember(key: string, reply: IdempotentReply, ttl: number): void {
    // Insertion order is time order (delete first), so expired keys are pruned from the front.
    this.idempotency.delete(key);
    this.idempotency.set(key, reply);
    for (const [k, v] of this.idempotency) {
      if (reply.at - v.at < ttl && this.idempotency.size <= MAX_IDEMPOTENCY_KEYS) break;
      this.idempotency.delete(k);
    }
  }

  private indexOf<K>(map: Map<K, CreationIndex>, key: K): CreationIndex {
    let index = map.get(key);
    if (!index) map.set(key, (index = new CreationIndex()));
    return index;
  }

  private pushTo(map: Map<string, Order[]>, key: string, order: Order): void {
    const list = map.get(key);
    if (list) list.push(order);
    else map.set(key, [order]);
  }
}
dataClass('OrderStore', OrderStore);

const orderStoreSlot = partitionSlot('lab_orders', () => new OrderStore());

/** The lab order store of a team environment (made on first use). */
export function ordersOf(d: Domain): OrderStore {
  return orderStoreSlot(d.partition, d.world);
}
