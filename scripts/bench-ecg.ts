/**
 * The plain ECG voltage list (issue 45): `GET /v2/timeseries/:user_id/electrocardiogram_voltage`
 * through the engine (its bytes rendered straight from the traces: src/state/wearables/voltage-json.ts)
 * against what a bare server spends on the same answer with the objects already in hand:
 * `JSON.stringify` of the samples and their UTF-8 encoding. Rounds interleaved in one run, the
 * median of each; also the heap the engine's answer leaves growing during one request (against
 * the answer's size). `npm run bench -- --ecg`.
 */
import { createSandbox } from '../src/index.js';
import { MAX_VOLTAGE_SESSIONS, type Rendered, voltageSamples } from '../src/state/wearables/timeseries.js';
import { usersOf } from '../src/state/users/users.js';
import { request, someUserId } from './bench-keyed.js';

const encoder = new TextEncoder();

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? Number.NaN;
};

export async function benchEcg(quick: boolean): Promise<void> {
  const sandbox = createSandbox({ seed: 21, users: 3, usersElsewhere: 0, logger: () => undefined });
  const userId = someUserId(sandbox, 0);
  const team = [...sandbox.world.tenancy.teams.values()][0];
  if (!team) throw new Error('no team');
  const user = usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).get(userId);
  if (!user) throw new Error('no user');
  const query = { start_date: ['2025-11-25'], end_date: ['2026-01-05'] };
  const req = request(sandbox, 'GET', `/v2/timeseries/${userId}/electrocardiogram_voltage`, query);
  // The same samples as objects, as the list was built before (a bare server's input): built
  // afresh each round outside the timing and dropped before the engine's turn, so neither side
  // pays for the other's heap.
  const from = Date.parse('2025-11-25T00:00:00Z');
  const to = Date.parse('2026-01-05T23:59:59Z');
  const objectsOf = (): unknown[] => {
    const all: Rendered[] = [];
    for (const g of voltageSamples(sandbox.world, user, '', from, to, MAX_VOLTAGE_SESSIONS).values()) for (const r of g.data) all.push(r);
    all.sort((a, b) => a.t - b.t || a.order - b.order);
    return all.map((r) => r.body);
  };
  let samples = 0;
  const rounds = quick ? 5 : 11;
  const ours: number[] = [];
  const bare: number[] = [];
  let size = 0;
  let grown = 0;
  for (let r = 0; r < rounds; r++) {
    let objects: unknown[] | null = objectsOf();
    samples = objects.length;
    global.gc?.();
    let t = process.hrtime.bigint();
    size = encoder.encode(JSON.stringify(objects)).byteLength;
    bare.push(Number(process.hrtime.bigint() - t) / 1e6);
    objects = null;
    global.gc?.();
    const heap = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    t = process.hrtime.bigint();
    const res = await sandbox.dispatch(req);
    ours.push(Number(process.hrtime.bigint() - t) / 1e6);
    grown = Math.max(grown, process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers - heap);
    if (res.body.byteLength !== size) throw new Error(`ECG answer ${res.body.byteLength} bytes, JSON.stringify ${size}`);
  }
  console.log(`\nECG voltage list (${samples} samples, ${(size / 1e6).toFixed(1)} MB; median of ${rounds} interleaved rounds)`);
  console.log(`${'case'.padEnd(52)} ${'base'.padStart(9)} ${'ours'.padStart(9)} ${'ratio'.padStart(7)}`);
  console.log(
    `${'GET electrocardiogram_voltage (engine, whole request)'.padEnd(52)} ${`${median(bare).toFixed(0)} ms`.padStart(9)} ${`${median(ours).toFixed(0)} ms`.padStart(9)} ${`${(median(ours) / median(bare)).toFixed(2)}x`.padStart(7)}  baseline: JSON.stringify + encode of the same objects; goal <= 1x`,
  );
  console.log(`heap + buffers held after one request: ${(grown / 1e6).toFixed(1)} MB (${(grown / size).toFixed(2)}x the answer)`);
}
