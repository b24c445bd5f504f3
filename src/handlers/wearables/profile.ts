/**
 * Profile and devices (api-facts A.2): `GET /v2/summary/profile/:user_id` (ClientFacingProfile
 * of the named provider, else of the first connected provider that records a profile, in
 * catalogue order), its `/raw` variant (RawProfile) and `GET /v2/summary/devices/:user_id/raw`
 * (RawDevicesResponse).
 *
 * LIMITATIONS
 * - A user whose providers record no profile answers 404 `Profile not found` (the sandbox's text).
 * - Raw `data` carries the profile's values in the provider's key style, not its exact schema.
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { rawUserDevices, rawUserProfile, userProfile } from '../../state/wearables/profile.js';
import { checkProvider, requireUser } from '../../state/wearables/wearable-data.js';
import { Profile, RawDevices, RawProfile, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const params = lazySchema(() => z.object({ user_id: uuid() }));
const query = lazySchema(() => z.object({ provider: z.string().default('') }));
const RESPONSES = { 404: 'Unknown user or no profile', 422: 'Malformed user_id or unknown provider' };

export const profileRoutes = [
  defineRoute({
    id: 'summary.profile',
    method: 'GET',
    path: '/v2/summary/profile/:user_id',
    auth: 'team',
    summary: "The user's profile as a provider reports it (ClientFacingProfile): height, birth date, sex.",
    request: { params, query },
    responses: { 200: res(Profile, 'ClientFacingProfile'), ...RESPONSES },
    handle(ctx, { params: p, query: q }) {
      checkProvider(q.provider);
      return reply(200, userProfile(ctx.world, requireUser(ctx, p.user_id), q.provider));
    },
  }),
  defineRoute({
    id: 'summary.profile.raw',
    method: 'GET',
    path: '/v2/summary/profile/:user_id/raw',
    auth: 'team',
    summary: 'The provider-shaped profile record (RawProfile).',
    request: { params, query },
    responses: { 200: res(RawProfile, 'RawProfile'), ...RESPONSES },
    handle(ctx, { params: p, query: q }) {
      checkProvider(q.provider);
      return reply(200, rawUserProfile(ctx.world, requireUser(ctx, p.user_id), q.provider));
    },
  }),
  defineRoute({
    id: 'summary.devices.raw',
    method: 'GET',
    path: '/v2/summary/devices/:user_id/raw',
    auth: 'team',
    summary: "The devices of the user's providers (RawDevicesResponse).",
    request: { params, query },
    responses: { 200: res(RawDevices, 'RawDevicesResponse'), 404: 'Unknown user', 422: 'Malformed user_id or unknown provider' },
    handle(ctx, { params: p, query: q }) {
      checkProvider(q.provider);
      return reply(200, rawUserDevices(ctx.world, requireUser(ctx, p.user_id), q.provider));
    },
  }),
];
