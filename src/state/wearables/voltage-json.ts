/**
 * The plain ECG voltage list (`GET /v2/timeseries/:user_id/electrocardiogram_voltage`) rendered
 * straight into its JSON bytes: 8-16 MB answers of 30 s sessions at up to 512 Hz, where one
 * object per sample (and `JSON.stringify` of them) cost most of the time and several times the
 * answer's size in memory. The bytes are those of `JSON.stringify` of the samples the grouped
 * variant builds (`voltageSamples`), in the same order (test/wearables/ecg-voltage-bytes.test.ts,
 * test/wearables/ecg-voltage-order.test.ts): all providers' samples by time, then source order,
 * then as grouped by provider.
 *
 * Memory: one buffer of exactly the answer's size (its length is counted first), each session's
 * values as 32-bit thousandths (4 bytes a sample, against about 110 in the answer; rounded from the
 * trace's approximation, src/fixtures/wearables/ecg-thousandths.ts) and that module's scratch
 * arrays (24 bytes a sample of the longest session, about 370 KB, kept between requests); nothing
 * is allocated per sample.
 */
import { type EcgSession, ecgSampleTime, ecgWindow } from '../../fixtures/wearables/ecg.js';
import { iso, tzOffsetSeconds } from '../../fixtures/wearables/wearable-time.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { voltageSessions } from './timeseries.js';

const HEAD = '{"timestamp":"';
/** `YYYY-MM-DDTHH:mm:ss`: the part of a timestamp its second fixes. */
const SECOND_CHARS = 19;
/** What follows a timestamp's second: `.mmm000` when the millisecond is not 0, then this. */
const ZONE = '+00:00';
/** `.mmm000`. */
const MILLI_CHARS = 7;

/** The ASCII bytes of `text`. */
function ascii(text: string): Uint8Array {
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/** Writes the ASCII text into `out` at `at`; returns the position after it. */
function put(out: Uint8Array, at: number, text: string): number {
  for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i);
  return at + text.length;
}

/** Decimal digits of a non-negative integer below 2^31. */
function digits(n: number): number {
  let count = 1;
  while (n >= 10) {
    n = Math.floor(n / 10);
    count++;
  }
  return count;
}

/**
 * Bytes of `k / 1000` as `JSON.stringify` writes `Math.round(v * 1000) / 1000` (the shortest
 * decimal of a number of thousandths is its thousandths without trailing zeros; -0 is "0").
 */
function thousandthsLength(k: number): number {
  const a = k < 0 ? -k : k;
  const fraction = a % 1000;
  const tail = fraction === 0 ? 0 : fraction % 100 === 0 ? 2 : fraction % 10 === 0 ? 3 : 4;
  return (k < 0 ? 1 : 0) + digits((a - fraction) / 1000) + tail;
}

/** Writes `k / 1000` (see `thousandthsLength`); returns the position after it. */
function putThousandths(out: Uint8Array, at: number, k: number): number {
  let a = k;
  if (a < 0) {
    out[at++] = 0x2d; // -
    a = -a;
  }
  const fraction = a % 1000;
  let n = (a - fraction) / 1000;
  const end = at + digits(n);
  let i = end;
  do {
    const q = Math.floor(n / 10);
    out[--i] = 0x30 + (n - q * 10);
    n = q;
  } while (n > 0);
  at = end;
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

/** One session as written: its samples in the window, their values, and its constant bytes. */
interface Part {
  /** `ecgSampleTime` of sample `i` is `start + Math.round((i * 1000) / fs)`. */
  start: number;
  fs: number;
  /** The session's first second (`start` less its millisecond) and that millisecond: instants are written from their offset to that second, a small integer. */
  base: number;
  startMilli: number;
  order: number;
  /** Samples `[first, end)` are in the window. */
  first: number;
  end: number;
  /** `Math.round(trace * 1000)` of those samples (|trace| < 3 mV: far inside 32 bits). */
  values: Int32Array;
  /** Bytes of the samples as written, without commas. */
  bytes: number;
  /** Whether every timestamp has the usual form (`YYYY-MM-DDTHH:mm:ss[.mmm000]+00:00`): then they are written from `head`. */
  plain: boolean;
  /** The second whose text `head` holds, as an offset to `base` in ms; -1 before the first. */
  second: number;
  /** `{"timestamp":"YYYY-MM-DDTHH:mm:ss`. */
  head: Uint8Array;
  /** `+00:00","timezone_offset":<offset>,"type":"lead_1","unit":"mV","value":`: what follows a timestamp's second or millisecond. */
  tail: Uint8Array;
}

/** Whether `iso` of every instant in `[a, b]` has the usual form: non-negative integers of four-digit years. */
function plainSpan(a: number, b: number): boolean {
  return Number.isSafeInteger(a) && Number.isSafeInteger(b) && a >= 0 && iso(b - (b % 1000)).length === SECOND_CHARS + ZONE.length;
}

/** A session to list: its source's order (ties between equal instants) and provider, and the user's zone. */
export interface VoltageSource {
  session: EcgSession;
  order: number;
  provider: string;
  zone: string;
}

/** The sessions in the order their samples are concatenated before sorting: grouped by provider in order of first appearance. */
function byProvider(sources: readonly VoltageSource[]): VoltageSource[] {
  const groups = new Map<string, VoltageSource[]>();
  for (const f of sources) {
    const list = groups.get(f.provider);
    if (list) list.push(f);
    else groups.set(f.provider, [f]);
  }
  return [...groups.values()].flat();
}

/** The part of one session: its window, values and length in bytes. */
function partOf({ session, order, zone }: VoltageSource, from: number, to: number): Part {
  const { first, end, values } = ecgWindow(session, from, to);
  const tail = ascii(`${ZONE}","timezone_offset":${tzOffsetSeconds(zone, session.start)},"type":"lead_1","unit":"mV","value":`);
  const plain = end > first && plainSpan(ecgSampleTime(session, first), ecgSampleTime(session, end - 1));
  const startMilli = plain ? session.start % 1000 : 0;
  let bytes = (end - first) * (HEAD.length + tail.length + 1) + valueBytes(values, first, plain ? startMilli : -1, session.fs);
  if (plain) bytes += (end - first) * SECOND_CHARS;
  else for (let i = first; i < end; i++) bytes += iso(ecgSampleTime(session, i)).length - ZONE.length;
  const head = ascii(`${HEAD}${'0'.repeat(SECOND_CHARS)}`);
  const base = session.start - startMilli;
  return {
    start: session.start,
    fs: session.fs,
    base,
    startMilli,
    order,
    first,
    end,
    values,
    bytes,
    plain,
    second: -1,
    head,
    tail,
  };
}

/**
 * The bytes of `values` (from sample `first` on) as written, and (unless `startMilli` is -1) of
 * the `.mmm000` of the samples whose millisecond is not 0.
 */
function valueBytes(values: Int32Array, first: number, startMilli: number, fs: number): number {
  let bytes = 0;
  for (let j = 0; j < values.length; j++) {
    bytes += thousandthsLength(values[j] as number);
    if (startMilli >= 0 && (startMilli + Math.round(((first + j) * 1000) / fs)) % 1000 !== 0) bytes += MILLI_CHARS;
  }
  return bytes;
}

/** Writes sample `i` of a part; returns the position after it. */
function putSample(out: Uint8Array, at: number, part: Part, i: number): number {
  const rel = part.startMilli + Math.round((i * 1000) / part.fs);
  if (part.plain) {
    const milli = rel % 1000;
    if (rel - milli !== part.second) {
      part.second = rel - milli;
      put(part.head, HEAD.length, iso(part.base + part.second).slice(0, SECOND_CHARS));
    }
    out.set(part.head, at);
    at += part.head.length;
    if (milli !== 0) {
      out[at] = 0x2e; // .
      out[at + 1] = 0x30 + Math.floor(milli / 100);
      out[at + 2] = 0x30 + (Math.floor(milli / 10) % 10);
      out[at + 3] = 0x30 + (milli % 10);
      out[at + 4] = 0x30;
      out[at + 5] = 0x30;
      out[at + 6] = 0x30;
      at += MILLI_CHARS;
    }
  } else {
    const stamp = iso(part.base + rel);
    at = put(out, put(out, at, HEAD), stamp.slice(0, stamp.length - ZONE.length));
  }
  out.set(part.tail, at);
  at += part.tail.length;
  at = putThousandths(out, at, part.values[i - part.first] as number);
  out[at++] = 0x7d; // }
  return at;
}

/**
 * Whether the next sample of part `x` (at `tx`) comes before that of part `y` (at `ty`) in the
 * sorted list: earlier, then lower source order, then earlier in the concatenation.
 */
function before(tx: number, x: Part, ix: number, ty: number, y: Part, iy: number): boolean {
  return tx < ty || (tx === ty && (x.order < y.order || (x.order === y.order && ix < iy)));
}

/**
 * Writes the samples from `start` (after the `[`): a merge of the parts by (time, source order,
 * concatenation). The next part's samples are written for as long as they come before every
 * other part's next one (a whole session, unless two providers recorded at the same time).
 * Answers the position after the last.
 */
function putMerged(out: Uint8Array, parts: readonly Part[], start: number): number {
  let at = start;
  const next = parts.map((p) => p.first);
  for (;;) {
    let best = -1;
    let bestT = 0;
    let second = -1;
    let secondT = 0;
    for (let k = 0; k < parts.length; k++) {
      const part = parts[k] as Part;
      const i = next[k] as number;
      if (i >= part.end) continue;
      const t = part.start + Math.round((i * 1000) / part.fs);
      if (best < 0 || before(t, part, k, bestT, parts[best] as Part, best)) {
        second = best;
        secondT = bestT;
        best = k;
        bestT = t;
      } else if (second < 0 || before(t, part, k, secondT, parts[second] as Part, second)) {
        second = k;
        secondT = t;
      }
    }
    if (best < 0) return at;
    const part = parts[best] as Part;
    const rival = second < 0 ? null : (parts[second] as Part);
    let i = next[best] as number;
    for (; i < part.end; i++) {
      const t = part.start + Math.round((i * 1000) / part.fs);
      if (rival !== null && !before(t, part, best, secondT, rival, second)) break;
      if (at > start) out[at++] = 0x2c; // ,
      at = putSample(out, at, part, i);
    }
    next[best] = i;
  }
}

/** The JSON bytes of the plain voltage list: at most `limit` sessions, the oldest. */
export function voltageJson(world: World, user: User, provider: string, from: number, to: number, limit: number): Uint8Array {
  const found = voltageSessions(world, user, provider, from, to, limit);
  return voltageListJson(
    found.map(({ s, session }) => ({ session, order: s.order, provider: s.link.provider.slug, zone: s.src.subject.zone })),
    from,
    to,
  );
}

/** The JSON bytes of the samples of `sources` (found oldest first) in `[from, to]`. */
export function voltageListJson(sources: readonly VoltageSource[], from: number, to: number): Uint8Array {
  const list = voltageList(sources, from, to);
  const out = new Uint8Array(list.size);
  list.write(out, 0);
  return out;
}

/** A voltage list to write: its exact size in bytes, and the writer of its bytes into a buffer. */
export interface VoltageList {
  size: number;
  /** Writes the list (`[...]`) into `out` at `at`; answers the position after it. */
  write: (out: Uint8Array, at: number) => number;
}

/**
 * The samples of `sources` (found oldest first) in `[from, to]` as a list to write: its size is
 * counted first (the order of the samples does not change it), so a caller writes it into one
 * buffer, never grown (the grouped variant writes each provider's list into its answer's buffer).
 */
export function voltageList(sources: readonly VoltageSource[], from: number, to: number): VoltageList {
  const sessions = byProvider(sources);
  const parts = sessions.map((f) => partOf(f, from, to));
  let size = 2;
  let count = 0;
  for (const part of parts) {
    size += part.bytes;
    count += part.end - part.first;
  }
  if (count > 0) size += count - 1;
  return {
    size,
    write(out, start) {
      out[start] = 0x5b; // [
      let at = putMerged(out, parts, start + 1);
      out[at++] = 0x5d; // ]
      if (at - start !== size) throw new Error(`ECG voltage list: ${at - start} bytes written, ${size} counted`);
      return at;
    },
  };
}
