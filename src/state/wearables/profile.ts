/**
 * The profile and devices a user's providers report (`/v2/summary/profile/:user_id`, its `/raw`
 * variant, `/v2/summary/devices/:user_id/raw`). Computed on read from the simulated person:
 * height from the person's build, birth date from the user's `fallback_birth_date` where set
 * (otherwise a date consistent with the person's age, for the providers that ask for one), sex
 * from the person. Each provider reports only what it records.
 */
import { stableUuid } from '../../engine/ids.js';
import type { World } from '../../engine/world.js';
import type { z } from 'zod';
import type { Profile, RawDevices as RawDevicesSchema, RawProfile as RawProfileSchema } from '../../wire/schemas.js';
import { providerBrief, type ProviderInfo } from '../../fixtures/wearables/providers.js';
import { deviceId, providerPayload } from '../../fixtures/wearables/raw.js';
import { sourceObject } from '../../fixtures/wearables/summaries.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-table.js';
import { usesWheelchair } from '../../fixtures/wearables/timeseries-rows-conditions.js';
import { u } from '../../fixtures/wearables/wearable-profile.js';
import { dateOfDay, iso } from '../../fixtures/wearables/wearable-time.js';
import type { User } from '../users/users.js';
import { wearablesOf, type Connection } from './connections.js';
import { wearablesError } from './errors.js';
import { dataSources } from './wearable-data.js';
import { readSources } from './read-sources.js';

type RawProfile = z.output<typeof RawProfileSchema>;
type RawDevices = z.output<typeof RawDevicesSchema>;

/** Providers that ask the user for a birth date. */
const BIRTH_DATE = new Set([
  'oura',
  'fitbit',
  'garmin',
  'apple_health_kit',
  'withings',
  'whoop_v2',
  'polar',
  'health_connect',
  'samsung_health',
]);
/** Providers that report gender as well as sex. */
const GENDER = new Set(['fitbit', 'garmin']);
/** Providers without a height field. */
const NO_HEIGHT = new Set(['strava']);

function birthDate(src: SourceCtx, user: User): string | null {
  if (user.fallback_birth_date) return user.fallback_birth_date.value;
  if (!BIRTH_DATE.has(src.provider.slug)) return null;
  // The person's age as the simulated person uses it (Subject), with a stable day of the year.
  const key = src.subject.key;
  const age = 25 + Math.floor(u(key, 'subject', 'age') * 40);
  const year = 2026 - age;
  const jan1 = Date.UTC(year, 0, 1) / 86_400_000;
  return dateOfDay(jan1 + Math.floor(u(key, 'subject', 'birthday') * 365));
}

function sexOf(src: SourceCtx): 'female' | 'male' {
  return u(src.subject.key, 'subject', 'sex') < 0.5 ? 'female' : 'male';
}

function firstConnection(world: World, user: User, p: ProviderInfo): Connection | undefined {
  const link = wearablesOf(world)
    .forUser(user.user_id)
    ?.links.find((l) => l.provider === p);
  if (!link) return undefined;
  const all = link.current ? [...link.past, link.current] : link.past;
  return all.reduce<Connection | undefined>((a, c) => (!a || c.created_at < a.created_at ? c : a), undefined);
}

/** ClientFacingProfile of one source. */
function profileOf(world: World, user: User, src: SourceCtx): z.output<typeof Profile> {
  const since = iso(firstConnection(world, user, src.provider)?.created_at ?? world.clock.now());
  const sex = sexOf(src);
  return {
    id: stableUuid(world.seed, 'profile', user.user_id, src.provider.slug),
    user_id: user.user_id,
    height: NO_HEIGHT.has(src.provider.slug) ? null : Math.round(src.subject.heightM * 100),
    birth_date: birthDate(src, user),
    wheelchair_use: src.provider.slug === 'apple_health_kit' && usesWheelchair(src.subject) ? true : null,
    gender: GENDER.has(src.provider.slug) ? sex : null,
    sex,
    source: sourceObject(src.provider),
    created_at: since,
    updated_at: since,
  };
}

/** The source a profile is read from: the named provider, else the first connected one (provider catalogue order). */
function profileSource(world: World, user: User, provider: string): SourceCtx {
  const sources = dataSources(world, user, 'profile', provider, world.clock.now());
  sources.sort((a, b) => a.link.provider.id - b.link.provider.id);
  const first = sources[0];
  if (!first) throw wearablesError.profileNotFound();
  return first.src;
}

/** `GET /v2/summary/profile/:user_id`. */
export function userProfile(world: World, user: User, provider: string): z.output<typeof Profile> {
  return profileOf(world, user, profileSource(world, user, provider));
}

/** `GET /v2/summary/profile/:user_id/raw` (RawProfile). */
export function rawUserProfile(world: World, user: User, provider: string): RawProfile {
  const src = profileSource(world, user, provider);
  const profile = profileOf(world, user, src);
  return {
    profile: {
      id: profile.id,
      data: providerPayload(src.provider, profile),
      user_id: user.user_id,
      source_id: src.provider.id,
      priority_id: src.provider.id,
      source: providerBrief(src.provider),
      created_at: profile.created_at,
      updated_at: profile.updated_at,
    },
  };
}

/** `GET /v2/summary/devices/:user_id/raw` (RawDevicesResponse): one device per provider with a device. */
export function rawUserDevices(world: World, user: User, provider: string): RawDevices {
  const sources = readSources(world, user);
  const devices: RawDevices['devices'] = [];
  const links = [...(wearablesOf(world).forUser(user.user_id)?.links ?? [])].sort((a, b) => a.provider.id - b.provider.id);
  for (const link of links) {
    if (provider !== '' && link.provider.slug !== provider) continue;
    const src = sources.source(link.provider);
    const id = deviceId(src);
    const conn = firstConnection(world, user, link.provider);
    if (!id || !conn) continue;
    devices.push({
      data: providerPayload(link.provider, {
        device_type: link.provider.device,
        manufacturer: link.provider.name,
        first_seen: iso(conn.created_at),
      }),
      provider_id: id,
      user_id: user.user_id,
      source_id: link.provider.id,
      id,
      source: providerBrief(link.provider),
    });
  }
  return { devices };
}
