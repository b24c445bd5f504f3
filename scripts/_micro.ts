import { createSandbox } from '../src/index.js';
import { usersOf } from '../src/state/users/users.js';
const sandbox = createSandbox({ seed: 1, users: 1000, logger: () => undefined });
const team = [...sandbox.world.tenancy.teams.values()][0]!;
const users = usersOf(sandbox.world.tenancy.partition(team, 'sandbox'), sandbox.world).all().slice(0, 50);
const apiKey = sandbox.credentials().teams[0]?.api_keys.sandbox ?? '';
const reqs = users.map((u) => ({ method: 'GET', surface: 'data' as const, path: `/v2/user/${u.user_id}`, query: {}, headers: { 'x-service-api-key': apiKey, host: '127.0.0.1:3000', connection: 'keep-alive' }, rawBody: new Uint8Array(0) }));
const r0 = await sandbox.dispatch(reqs[0]!);
console.log(r0.status, r0.body.byteLength, Buffer.from(r0.body).toString().slice(0, 300));
for (let round = 0; round < 5; round++) {
  const t = process.cpuUsage();
  const N = 20000;
  for (let i = 0; i < N; i++) await sandbox.dispatch(reqs[i % reqs.length]!);
  const u = process.cpuUsage(t);
  console.log('dispatch us/req', ((u.user + u.system) / N).toFixed(1));
}
sandbox.close();
{
  const orig = JSON.stringify;
  let acc = 0n; let n = 0; let sample: unknown;
  (JSON as { stringify: unknown }).stringify = (...a: Parameters<typeof orig>) => { const t = process.hrtime.bigint(); const r = orig(...a); acc += process.hrtime.bigint() - t; n++; sample = a[0]; return r; };
  const s2 = createSandbox({ seed: 1, users: 1000, logger: () => undefined });
  const key = s2.credentials().teams[0]?.api_keys.sandbox ?? '';
  for (let i = 0; i < 20000; i++) await s2.dispatch({ ...reqs[i % reqs.length]!, headers: { 'x-service-api-key': key } });
  console.log('stringify calls', n, 'ns/call', Number(acc) / n);
  const plain = JSON.parse(orig(sample));
  let t = process.hrtime.bigint(); for (let i = 0; i < 20000; i++) orig(sample); console.log('sample ns', Number(process.hrtime.bigint() - t) / 20000);
  t = process.hrtime.bigint(); for (let i = 0; i < 20000; i++) orig(plain); console.log('plain ns', Number(process.hrtime.bigint() - t) / 20000);
  console.log(Object.getPrototypeOf(sample), Object.keys(sample as object));
}
