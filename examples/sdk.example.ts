/**
 * Recipe: the official SDK (@tryvital/vital-node) against a sandbox server started in the test
 * process: a scenario for the world, a reset before every test and each test in its own team (so
 * tests may share one server and run concurrently).
 * In your project: `import { startSandbox } from 'health-sandbox/testing'`.
 */
import { VitalClient } from '@tryvital/vital-node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type StartedSandbox } from '../src/testing.js';
import { ownTeam } from './own-team.js';

let sandbox: StartedSandbox;

describe('recipe: the official SDK', () => {
  beforeAll(async () => {
    sandbox = await startSandbox({ scenario: { world: 'empty', feed: 'off' } });
  });
  afterAll(() => sandbox.close());
  // A fresh world before every test: same scenario, same org and keys; teams created by earlier tests are gone.
  beforeEach(async () => {
    await sandbox.reset();
  });

  it('creates and reads a user in a team of its own', async () => {
    const { apiKey } = await ownTeam(sandbox);
    const client = new VitalClient({ apiKey, baseUrl: sandbox.url, maxRetries: 0 });
    const created = await client.user.create({ clientUserId: 'sdk-recipe-user' });
    const user = await client.user.get(created.userId);
    expect(user.clientUserId).toBe('sdk-recipe-user');
    expect((await client.user.getAll()).users).toHaveLength(1);
  });

  it('another test, another team: nothing shared', async () => {
    const { teamId, apiKey } = await ownTeam(sandbox);
    expect((await sandbox.credentials()).teams.filter((t) => t.name.startsWith('test-team-')).map((t) => t.team_id)).toEqual([teamId]);
    const client = new VitalClient({ apiKey, baseUrl: sandbox.url, maxRetries: 0 });
    expect((await client.user.getAll()).users).toHaveLength(0);
  });
});
