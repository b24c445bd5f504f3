/**
 * The plain ECG voltage list (`GET /v2/timeseries/:user_id/electrocardiogram_voltage`) rendered
 * straight into its JSON bytes: 8-16 MB answers of 30 s sessions at up to 512 Hz, where one
 * object per sample (and `JSON.stringify` of them) cost most of the time and several times the
 * answer's size in memory. The bytes are those of `JSON.stringify` of the samples the grouped
 * variant builds (`voltageSamples`), in the same order (test/wearables/ecg-voltage-bytes.test.ts):
 * all providers' samples by time, then source order, then as grouped by provider. Memory: the
 * sessions' traces and one buffer the size of the answer.
 */
import { ecgSampleTime, ecgTrace } from '../../fixtures/wearables/ecg.js';
import { iso, tzOffsetSeconds } from '../../fixtures/wearables/wearable-time.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { type FoundSession, voltageSessions } from './timeseries.js';

/** Bytes a sample usually takes (the first guess of the buffer's size; it grows when short). */
const SAMPLE_BYTES = 118;
/** Bytes one sample takes at most: the keys, a 32-character timestamp, the offset and a number. */
const MAX_SAMPLE_BYTES = 200;

const HEAD = '{"timestamp":"';
const OFFSET = '","timezone_offset":';
const TAIL = ',"type":"lead_1","unit":"mV","value":';

/** Writes the ASCII text into `out` at `at`; returns the position after it. */
function put(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/**
 * Writes `k / 1000` as `JSON.stringify` writes `Math.round(v * 1000) / 1000` (the shortest
 * decimal of a number of thousandths is its thousandths without trailing zeros; -0 is "0").
 * Magnitudes beyond 2^53 thousandths fall back to `String`.
 */
function putThousandths(out: Uint8Array, at: number, k: number): number {
  if (!Number.isSafeInteger(k)) return put(out, at, String(k / 1000));
  let a = k;
  if (a < 0) {
    out[at++] = 0x2d; // -
    a = -a;
  }
  const fraction = a % 1000;
  at = put(out, at, String((a - fraction) / 1000));
  if (fraction !== 0) {
    out[at++] = 0x2e; // .
    out[at++] = 0x30 + Math.floor(fraction / 100);
    const rest = fraction % 100;
    if (rest !== 0) {
      out[at++] = 0x30 + Math.floor(rest / 10);
      if (rest % 10 !== 0) out[at++] = 0x30 + (rest % 10);
    }
  }
  return at;
}

/** The JSON bytes of the plain voltage list: at most `limit` sessions, the oldest. */
export function voltageJson(world: World, user: User, provider: string, from: number, to: number, limit: number): Uint8Array {
  // Sessions grouped by provider in order of first appearance, as voltageSamples groups them.
  const byProvider = new Map<string, FoundSession[]>();
  for (const found of voltageSessions(world, user, provider, from, to, limit)) {
    const slug = found.s.link.provider.slug;
    const list = byProvider.get(slug);
    if (list) list.push(found);
    else byProvider.set(slug, [found]);
  }
  const sessions = [...byProvider.values()].flat();
  // Samples in range per session (index ranges: sample times only grow).
  const firsts: number[] = [];
  const ends: number[] = [];
  let count = 0;
  for (const { session } of sessions) {
    let a = 0;
    while (a < session.samples && ecgSampleTime(session, a) < from) a++;
    let b = a;
    while (b < session.samples && ecgSampleTime(session, b) <= to) b++;
    firsts.push(a);
    ends.push(b);
    count += b - a;
  }
  // Every sample as (session, index), in the order `JSON.stringify` of the sorted list has them.
  const which = new Uint32Array(count);
  const index = new Uint32Array(count);
  const times = new Float64Array(count);
  let n = 0;
  let sorted = true;
  for (let k = 0; k < sessions.length; k++) {
    const { session } = sessions[k] as FoundSession;
    for (let i = firsts[k] as number; i < (ends[k] as number); i++) {
      which[n] = k;
      index[n] = i;
      times[n] = ecgSampleTime(session, i);
      if (n > 0 && (times[n] as number) < (times[n - 1] as number)) sorted = false;
      n++;
    }
  }
  let order: Uint32Array | null = null;
  if (!sorted || sessions.some((x, k) => k > 0 && x.s.order < (sessions[k - 1] as FoundSession).s.order)) {
    order = new Uint32Array(count);
    for (let i = 0; i < count; i++) order[i] = i;
    order.sort(
      (x, y) =>
        (times[x] as number) - (times[y] as number) ||
        (sessions[which[x] as number] as FoundSession).s.order - (sessions[which[y] as number] as FoundSession).s.order ||
        x - y,
    );
  }
  const traces = sessions.map(({ session }) => ecgTrace(session));
  const offsets = sessions.map(({ s, session }) => String(tzOffsetSeconds(s.src.subject.zone, session.start)));
  let out = new Uint8Array(count * SAMPLE_BYTES + 2);
  let at = 0;
  out[at++] = 0x5b; // [
  let second = Number.NaN;
  let secondText = '';
  for (let j = 0; j < count; j++) {
    const x = order === null ? j : (order[j] as number);
    const k = which[x] as number;
    if (out.length - at < MAX_SAMPLE_BYTES) {
      const grown = new Uint8Array(Math.ceil(out.length * 1.5) + MAX_SAMPLE_BYTES);
      grown.set(out.subarray(0, at));
      out = grown;
    }
    if (j > 0) out[at++] = 0x2c; // ,
    at = put(out, at, HEAD);
    // `iso`: the second's text, then `.mmm000` when the millisecond is not 0, then `+00:00`.
    const t = times[x] as number;
    const milli = t % 1000;
    if (t - milli !== second) {
      second = t - milli;
      secondText = iso(second);
    }
    if (milli === 0 || !Number.isInteger(t) || t < 0) at = put(out, at, milli === 0 ? secondText : iso(t));
    else {
      for (let i = 0; i < 19; i++) out[at + i] = secondText.charCodeAt(i);
      at += 19;
      out[at++] = 0x2e; // .
      out[at++] = 0x30 + Math.floor(milli / 100);
      out[at++] = 0x30 + (Math.floor(milli / 10) % 10);
      out[at++] = 0x30 + (milli % 10);
      at = put(out, at, '000+00:00');
    }
    at = put(out, at, OFFSET);
    at = put(out, at, offsets[k] as string);
    at = put(out, at, TAIL);
    at = putThousandths(out, at, Math.round(((traces[k] as Float64Array)[index[x] as number] as number) * 1000));
    out[at++] = 0x7d; // }
  }
  out[at++] = 0x5d; // ]
  return out.subarray(0, at);
}
