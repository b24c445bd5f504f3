/**
 * The plain ECG voltage list (issue 45): `GET /v2/timeseries/:user_id/electrocardiogram_voltage`
 * through the engine (its bytes rendered straight from the traces: src/state/wearables/voltage-json.ts)
 * against what a bare server spends on the same answer with the objects already in hand:
 * `JSON.stringify` of the samples and their UTF-8 encoding. Rounds interleaved in one run, the
 * median of each (after one warm-up round); also the heap and array buffers each side grows by
 * during its step (no collection within it; against each other and the answer's size), and the
 * sessions' traces alone: the exact generator against the rounded values the list serves. `npm run bench -- --ecg`.
 */
import { createSandbox } from '../src/index.js';
import { MAX_VOLTAGE_SESSIONS, type Rendered, voltageSamples, voltageSessions } from '../src/state/wearables/timeseries.js';
import { ecgTrace } from '../src/fixtures/wearables/ecg-trace.js';
import { ecgThousandths } from '../src/fixtures/wearables/ecg-thousandths.js';
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
  /** Heap + array buffers grown over the step (no collection within it), per round. */
  const grownOurs: number[] = [];
  const grownBare: number[] = [];
  /** Array buffers alone grown over the request (the answer's buffer and the typed arrays). */
  const buffers: number[] = [];
  const used = (): number => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
  let size = 0;
  // One warm-up round for both sides (compilation), not counted.
  for (let r = -1; r < rounds; r++) {
    let objects: unknown[] | null = objectsOf();
    samples = objects.length;
    global.gc?.();
    let before = used();
    let t = process.hrtime.bigint();
    size = encoder.encode(JSON.stringify(objects)).byteLength;
    const bareMs = Number(process.hrtime.bigint() - t) / 1e6;
    const bareGrown = used() - before;
    objects = null;
    global.gc?.();
    before = used();
    const buffersBefore = process.memoryUsage().arrayBuffers;
    t = process.hrtime.bigint();
    const res = await sandbox.dispatch(req);
    const oursMs = Number(process.hrtime.bigint() - t) / 1e6;
    const oursGrown = used() - before;
    const buffersGrown = process.memoryUsage().arrayBuffers - buffersBefore;
    if (res.body.byteLength !== size) throw new Error(`ECG answer ${res.body.byteLength} bytes, JSON.stringify ${size}`);
    if (r < 0) continue;
    bare.push(bareMs);
    ours.push(oursMs);
    grownBare.push(bareGrown);
    grownOurs.push(oursGrown);
    buffers.push(buffersGrown);
  }
  const mb = (n: number): string => `${(n / 1e6).toFixed(1)} MB`;
  console.log(
    `\nECG voltage list (${samples} samples, ${(size / 1e6).toFixed(1)} MB; median of ${rounds} interleaved rounds after one warm-up)`,
  );
  console.log(`${'case'.padEnd(52)} ${'base'.padStart(9)} ${'ours'.padStart(9)} ${'ratio'.padStart(7)}`);
  console.log(
    `${'GET electrocardiogram_voltage (engine, whole request)'.padEnd(52)} ${`${median(bare).toFixed(0)} ms`.padStart(9)} ${`${median(ours).toFixed(0)} ms`.padStart(9)} ${`${(median(ours) / median(bare)).toFixed(2)}x`.padStart(7)}  baseline: JSON.stringify + encode of the same objects; goal <= 1x`,
  );
  console.log(
    `${'heap + buffers grown over the step (median)'.padEnd(52)} ${mb(median(grownBare)).padStart(9)} ${mb(median(grownOurs)).padStart(9)} ${`${(median(grownOurs) / median(grownBare)).toFixed(2)}x`.padStart(7)}  ours ${(median(grownOurs) / size).toFixed(2)}x the answer (largest round ${(Math.max(...grownOurs) / size).toFixed(2)}x)`,
  );
  console.log(
    `of which array buffers (the answer's, the sessions' 32-bit values): ${mb(median(buffers))} (${(median(buffers) / size).toFixed(2)}x the answer)`,
  );
  // The generation alone: the exact trace (what the grouped list rounds) against the rounded
  // values the plain list takes (an approximation, exact near rounding boundaries).
  const sessions = voltageSessions(sandbox.world, user, '', from, to, MAX_VOLTAGE_SESSIONS).map((f) => f.session);
  const exactMs: number[] = [];
  const roundedMs: number[] = [];
  for (let r = -1; r < rounds; r++) {
    let t = process.hrtime.bigint();
    for (const session of sessions) ecgTrace(session);
    const e = Number(process.hrtime.bigint() - t) / 1e6;
    t = process.hrtime.bigint();
    for (const session of sessions) ecgThousandths(session, 0, new Int32Array(session.samples));
    const f = Number(process.hrtime.bigint() - t) / 1e6;
    if (r < 0) continue;
    exactMs.push(e);
    roundedMs.push(f);
  }
  console.log(
    `${`traces of the ${sessions.length} sessions alone`.padEnd(52)} ${`${median(exactMs).toFixed(1)} ms`.padStart(9)} ${`${median(roundedMs).toFixed(1)} ms`.padStart(9)} ${`${(median(roundedMs) / median(exactMs)).toFixed(2)}x`.padStart(7)}  baseline: the exact trace (ecgTrace); ours: the rounded values the list serves`,
  );
}
