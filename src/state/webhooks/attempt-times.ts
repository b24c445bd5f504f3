/**
 * The attempts of the delivery log counted by team environment and five minutes of their start
 * (issue 45): the event delivery metric (management, `PrometheusQueryResponse`) reads these
 * counts instead of walking the whole log. Kept beside the log (attempt-log.ts: updated when an
 * attempt is logged and when retention drops it, rebuilt from the log when a saved world is read),
 * never saved itself.
 *
 * Five minutes is the finest step of the metric (5m, 15m, 1h, 1d), and every step starts on a
 * multiple of five minutes since the epoch, so each count lies wholly inside one step.
 */

/** Seconds of a count (the metric's finest step). */
export const ATTEMPT_SLOT_S = 300;

interface PartitionCounts {
  /** Logged attempts of the team environment. */
  size: number;
  /** Slot (start second / ATTEMPT_SLOT_S) -> attempts that succeeded and failed. */
  slots: Map<number, { success: number; failed: number }>;
}

const partitionKey = (team_id: string, environment: string) => `${team_id}\u241f${environment}`;

/** The start second of an attempt's ISO creation time, as the metric reads it (NaN when it does not parse). */
export const startSecond = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000);

export class AttemptTimes {
  private readonly partitions = new Map<string, PartitionCounts>();
  /**
   * The last creation time parsed and its slot, for attempts logged and for attempts dropped apart
   * (the attempts of one tick share their time; retention drops attempts of long ago while new
   * ones are logged: one memo for both would parse every time).
   */
  private lastIso = '';
  private lastSlot = Number.NaN;
  private lastDroppedIso = '';
  private lastDroppedSlot = Number.NaN;

  private slotOf(createdAt: string, delta: 1 | -1): number {
    if (delta < 0) {
      if (createdAt !== this.lastDroppedIso) {
        this.lastDroppedIso = createdAt;
        this.lastDroppedSlot = Math.floor(startSecond(createdAt) / ATTEMPT_SLOT_S);
      }
      return this.lastDroppedSlot;
    }
    if (createdAt !== this.lastIso) {
      this.lastIso = createdAt;
      this.lastSlot = Math.floor(startSecond(createdAt) / ATTEMPT_SLOT_S);
    }
    return this.lastSlot;
  }

  /** An attempt was logged (`delta` 1) or dropped from the log (`delta` -1). */
  count(team_id: string, environment: string, createdAt: string, ok: boolean, delta: 1 | -1): void {
    const key = partitionKey(team_id, environment);
    let p = this.partitions.get(key);
    if (p === undefined) this.partitions.set(key, (p = { size: 0, slots: new Map() }));
    p.size += delta;
    const slot = this.slotOf(createdAt, delta);
    let c = p.slots.get(slot);
    if (c === undefined) p.slots.set(slot, (c = { success: 0, failed: 0 }));
    if (ok) c.success += delta;
    else c.failed += delta;
    if (c.success === 0 && c.failed === 0) p.slots.delete(slot);
    if (p.size === 0) this.partitions.delete(key);
  }

  /** How many attempts of a team environment the log holds. */
  size(team_id: string, environment: string): number {
    return this.partitions.get(partitionKey(team_id, environment))?.size ?? 0;
  }

  /**
   * The attempts of a team environment that started in each of `steps` steps of `stepS` seconds
   * from `firstS` (multiples of ATTEMPT_SLOT_S), by outcome.
   */
  perStep(team_id: string, environment: string, firstS: number, stepS: number, steps: number): { success: number[]; failed: number[] } {
    const out = { success: new Array<number>(steps).fill(0), failed: new Array<number>(steps).fill(0) };
    const p = this.partitions.get(partitionKey(team_id, environment));
    if (p === undefined) return out;
    const first = firstS / ATTEMPT_SLOT_S;
    const perStep = stepS / ATTEMPT_SLOT_S;
    const end = first + steps * perStep;
    const add = (slot: number, c: { success: number; failed: number }) => {
      const i = Math.floor((slot - first) / perStep);
      out.success[i] = (out.success[i] ?? 0) + c.success;
      out.failed[i] = (out.failed[i] ?? 0) + c.failed;
    };
    // The fewer of the window's slots and the slots counted.
    if (p.slots.size <= end - first) {
      for (const [slot, c] of p.slots) if (slot >= first && slot < end) add(slot, c);
    } else {
      for (let slot = first; slot < end; slot++) {
        const c = p.slots.get(slot);
        if (c !== undefined) add(slot, c);
      }
    }
    return out;
  }
}
