/** Dumps a seeded world as canonical JSON: npm run seed-dump -- [seed] [users] */
import { createSandbox } from '../src/index.js';
import { snapshotWorld } from '../src/engine/snapshot.js';

const seed = Number(process.argv[2] ?? 1);
const users = Number(process.argv[3] ?? 25);
process.stdout.write(`${snapshotWorld(createSandbox({ seed, users }).world)}\n`);
