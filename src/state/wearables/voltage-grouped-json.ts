/**
 * A page of the grouped ECG voltages (`GET /v2/timeseries/:user_id/electrocardiogram_voltage/grouped`)
 * rendered straight into its JSON bytes, as the plain list is (voltage-json.ts, issue 45): a page
 * is up to three days of 30 s sessions at up to 512 Hz (1-2 MB), where one object per sample and
 * `JSON.stringify` of them cost four times what the plain list's writer costs per byte.
 *
 * The bytes are those of `JSON.stringify` of the page as built from objects (`voltageSamples`:
 * `{groups: {<provider>: [{source, data}]}, next, next_cursor}`, providers in order of their first
 * session, each provider's samples in the order of its sessions, oldest first), tested by
 * test/wearables/ecg-voltage-grouped-bytes.test.ts. A provider's sessions are one a day, never
 * overlapping, all of one source order: the plain list's merge of them by time is their
 * concatenation, so each provider's `data` is written by the plain list's writer.
 *
 * Memory: one buffer of exactly the answer's size (every part's length is counted first) and the
 * plain list's per-session values (4 bytes a sample).
 */
import { ecgDeviceId } from '../../fixtures/wearables/ecg.js';
import { sourceObject } from '../../fixtures/wearables/summaries.js';
import type { World } from '../../engine/world.js';
import type { User } from '../users/users.js';
import { type FoundSession, voltageSessions } from './timeseries.js';
import { type VoltageList, type VoltageSource, voltageList } from './voltage-json.js';

const encoder = new TextEncoder();

/** One provider's group: the JSON before its `data` list, and the list. */
interface Group {
  head: Uint8Array;
  list: VoltageList;
}

const OPEN = encoder.encode('{"groups":{');
/** What closes a group (after its `data` list). */
const CLOSE = encoder.encode('}]');

/** The JSON bytes of a grouped page over `[from, to]` whose cursor to the next page is `next` (null after the last). */
export function voltageGroupedJson(world: World, user: User, provider: string, from: number, to: number, next: string | null): Uint8Array {
  const byProvider = new Map<string, { first: FoundSession; sources: VoltageSource[] }>();
  for (const f of voltageSessions(world, user, provider, from, to, Number.POSITIVE_INFINITY)) {
    const slug = f.s.link.provider.slug;
    const source: VoltageSource = { session: f.session, order: f.s.order, provider: slug, zone: f.s.src.subject.zone };
    const group = byProvider.get(slug);
    if (group) group.sources.push(source);
    else byProvider.set(slug, { first: f, sources: [source] });
  }
  const groups: Group[] = [];
  for (const [slug, { first, sources }] of byProvider) {
    const p = first.s.link.provider;
    // The source object as voltageSamples builds it (the same keys in the same order).
    const source = { ...sourceObject(p), type: p.device === 'scale' ? 'watch' : p.device, device_id: ecgDeviceId(first.s.src) };
    const comma = groups.length > 0 ? ',' : '';
    groups.push({
      head: encoder.encode(`${comma}${JSON.stringify(slug)}:[{"source":${JSON.stringify(source)},"data":`),
      list: voltageList(sources, from, to),
    });
  }
  const tail = encoder.encode(`},"next":${JSON.stringify(next)},"next_cursor":${JSON.stringify(next)}}`);
  let size = OPEN.byteLength + tail.byteLength;
  for (const g of groups) size += g.head.byteLength + g.list.size + CLOSE.byteLength;
  const out = new Uint8Array(size);
  out.set(OPEN, 0);
  let at = OPEN.byteLength;
  for (const g of groups) {
    out.set(g.head, at);
    at = g.list.write(out, at + g.head.byteLength);
    out.set(CLOSE, at);
    at += CLOSE.byteLength;
  }
  out.set(tail, at);
  at += tail.byteLength;
  if (at !== size) throw new Error(`ECG voltage groups: ${at} bytes written, ${size} counted`);
  return out;
}
