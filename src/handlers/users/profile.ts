/**
 * User demographics and insurance (data `user` tag): `PATCH /v2/user/{id}/info` records the
 * user's demographics, `GET .../info/latest` answers the latest; `POST .../insurance` records an
 * insurance against a known payor (the payor's company details filled in), `GET
 * .../insurance/latest` answers the latest (primary by default).
 *
 * LIMITATIONS
 * - Demographics and insurances are stored, not yet used by lab orders (orders take their own
 *   patient details, as the real API requires).
 */
import { z } from 'zod';
import { defineRoute, reply } from '../../engine/route.js';
import { bool, guarantor, isoDate, postalAddress, uuid } from '../../engine/schemas.js';
import { addInsurance, latestDemographics, latestInsurance, setDemographics } from '../../state/users/profile.js';
import { Insurance, UserInfo, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const userIdParams = lazySchema(() => z.object({ user_id: uuid() }));

const address = lazySchema(() => postalAddress());

const infoBody = lazySchema(() =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.email(),
    phone_number: z.string(),
    gender: z.string(),
    dob: isoDate(),
    address,
    medical_proxy: guarantor().nullish(),
    race: z
      .enum([
        'african_american_or_black',
        'asian',
        'indigenous_native_american_alaska_native',
        'other',
        'pacific_islander_or_hawaiian',
        'white_caucasian',
      ])
      .nullish(),
    ethnicity: z.enum(['hispanic', 'non_hispanic', 'ashkenazi_jewish', 'other']).nullish(),
    sexual_orientation: z.enum(['lesbian_gay_or_homosexual', 'heterosexual_or_straight', 'bisexual', 'dont_know', 'other']).nullish(),
    gender_identity: z
      .enum([
        'male',
        'female',
        'female_to_male_ftm_transgender_male_trans_man',
        'male_to_female_mtf_transgender_female_trans_woman',
        'genderqueer',
        'other',
      ])
      .nullish(),
  }),
);

const person = lazySchema(() =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    gender: z.enum(['female', 'male', 'other', 'unknown']),
    address,
    dob: isoDate(),
    email: z.string(),
    phone_number: z.string(),
  }),
);

const insuranceBody = lazySchema(() =>
  z.object({
    payor_code: z.string().min(1),
    member_id: z.string().min(1),
    group_id: z.string().nullish(),
    relationship: z.enum(['Self', 'Spouse', 'Other']),
    insured: person,
    guarantor: guarantor().nullish(),
    is_primary: z.boolean().default(true),
  }),
);

export const profileRoutes = [
  defineRoute({
    id: 'users.info_patch',
    method: 'PATCH',
    path: '/v2/user/:user_id/info',
    auth: 'team',
    summary: "Record the user's demographics (UserInfo); the latest replace the previous.",
    request: { params: userIdParams, body: infoBody },
    responses: { 200: res(UserInfo, 'UserInfo'), 404: 'Unknown user', 422: 'Validation error' },
    handle: (ctx, { params, body }) => reply(200, setDemographics(ctx, params.user_id, body)),
  }),
  defineRoute({
    id: 'users.info_latest',
    method: 'GET',
    path: '/v2/user/:user_id/info/latest',
    auth: 'team',
    summary: "The user's latest demographics.",
    request: { params: userIdParams },
    responses: { 200: res(UserInfo, 'UserInfo'), 404: 'Unknown user or none recorded' },
    handle: (ctx, { params }) => reply(200, latestDemographics(ctx, params.user_id)),
  }),
  defineRoute({
    id: 'users.insurance_create',
    method: 'POST',
    path: '/v2/user/:user_id/insurance',
    auth: 'team',
    summary: 'Record an insurance for the user (payor_code from the payor search).',
    request: { params: userIdParams, body: insuranceBody },
    responses: { 200: res(Insurance, 'ClientFacingInsurance'), 404: 'Unknown user', 422: 'Validation error or unknown payor' },
    handle: (ctx, { params, body }) => reply(200, addInsurance(ctx, params.user_id, body)),
  }),
  defineRoute({
    id: 'users.insurance_latest',
    method: 'GET',
    path: '/v2/user/:user_id/insurance/latest',
    auth: 'team',
    summary: "The user's latest insurance (is_primary, default true).",
    request: { params: userIdParams, query: lazySchema(() => z.object({ is_primary: bool().default(true) })) },
    responses: { 200: res(Insurance, 'ClientFacingInsurance'), 404: 'Unknown user or none recorded' },
    handle: (ctx, { params, query }) => reply(200, latestInsurance(ctx, params.user_id, query.is_primary)),
  }),
];
