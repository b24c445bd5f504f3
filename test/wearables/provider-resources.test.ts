/**
 * Each provider reports only the resources it plausibly has (issue 31): the table in
 * docs/simulated/wearables.md is the catalogue, and the historical notices, the feed's events
 * and `resource_availability` of a connection never name a resource outside its provider's row.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PROVIDERS, providerBySlug } from '../../src/fixtures/wearables/providers.js';
import { createClient } from '../support/client.js';

const doc = readFileSync(resolve(dirname(fileURLToPath(import.meta.url)), '../../docs/simulated/wearables.md'), 'utf8');

/** The documented rows: slug -> resources. */
function documented(): Map<string, string[]> {
  const section = doc.split('<!-- provider-resources:start -->')[1]?.split('<!-- provider-resources:end -->')[0] ?? '';
  const rows = section
    .split('\n')
    .filter((l) => l.startsWith('| `'))
    .map((l) => l.split('|').map((c) => c.trim()));
  return new Map(rows.map((cells) => [String(cells[1]).replace(/`/g, ''), String(cells[4]).split(', ')]));
}

describe('providers report only the resources they plausibly have', () => {
  it('the documented table is the catalogue, row for row', () => {
    const table = documented();
    expect([...table.keys()]).toEqual(PROVIDERS.map((p) => p.slug));
    for (const p of PROVIDERS) expect(table.get(p.slug), p.slug).toEqual(p.resources);
    expect(providerBySlug('freestyle_libre')?.resources).not.toContain('insulin_injection');
    for (const meter of PROVIDERS.filter((p) => p.device === 'fingerprick')) expect(meter.resources).toEqual(['glucose']);
  });

  it('historical notices, feed events and resource availability name only the provider’s resources', async () => {
    const c = createClient('express', { seed: 350, users: 0, usersElsewhere: 0, feed: 'on' });
    const userId = (await c.post('/v2/user', { client_user_id: 'resources-1' })).body.user_id as string;
    for (const provider of ['freestyle_libre', 'oura'])
      expect((await c.post('/v2/link/connect/demo', { user_id: userId, provider })).status).toBe(200);
    await c.advance(6 * 3600);
    const events = (await c.get('/_sandbox/events', { query: { user_id: userId, limit: 10000 } })).body.events as Array<{
      envelope: { event_type: string; data: any };
    }>;
    const outside: string[] = [];
    for (const { envelope } of events) {
      const [kind, , resource] = envelope.event_type.split('.');
      if (kind !== 'historical' && kind !== 'daily') continue;
      const slug = kind === 'historical' ? envelope.data.provider : (envelope.data.source?.slug ?? envelope.data.source?.provider);
      const provider = providerBySlug(String(slug));
      // sleep cycles come from the sleeps of providers that record stages (the hypnogram)
      const name = resource === 'sleep_cycle' ? 'hypnogram' : String(resource);
      if (!provider?.resources.includes(name)) outside.push(`${envelope.event_type} from ${slug}`);
    }
    expect(outside).toEqual([]);
    const historical = events.filter((e) => e.envelope.event_type.startsWith('historical.')).map((e) => e.envelope.event_type);
    expect(historical).toContain('historical.data.glucose.created');
    expect(historical).not.toContain('historical.data.insulin_injection.created');
    const created = events.filter((e) => e.envelope.event_type === 'provider.connection.created');
    for (const e of created) {
      const provider = providerBySlug(e.envelope.data.provider.slug);
      for (const resource of Object.keys(e.envelope.data.resource_availability ?? {}))
        expect(provider?.resources, `${provider?.slug} ${resource}`).toContain(resource);
    }
  });
});
