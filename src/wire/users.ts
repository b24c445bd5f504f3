/** Users, their demographics, insurance, devices and team metrics. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { calendarDate, dateTime, ProviderRef, uuidString } from './common.js';

/** @public Read as `typeof W.ConnectedSource` by the type modules (src/wire/types.ts, src/testing/types.ts), which knip does not trace. */
export const ConnectedSource = lazySchema(() => z.object({ created_on: dateTime, provider: ProviderRef, source: ProviderRef }));

const Fallback = lazySchema(() => z.object({ source_slug: z.string(), updated_at: dateTime }));

export const User = lazySchema(() =>
  z.object({
    user_id: uuidString,
    team_id: uuidString,
    client_user_id: z.string(),
    created_on: dateTime,
    connected_sources: z.array(ConnectedSource),
    fallback_time_zone: Fallback.extend({ id: z.string() }).nullable(),
    fallback_birth_date: Fallback.extend({ value: calendarDate }).nullable(),
    ingestion_start: z.string().nullable(),
    ingestion_end: z.string().nullable(),
  }),
);

export const UserList = lazySchema(() =>
  z.object({ users: z.array(User), total: z.number().int(), offset: z.number().int(), limit: z.number().int() }),
);

export const Address = lazySchema(() =>
  z.object({
    first_line: z.string(),
    second_line: z.string().nullish(),
    country: z.string(),
    zip: z.string(),
    city: z.string(),
    state: z.string(),
    access_notes: z.string().nullish(),
  }),
);

/** GuarantorDetails: a user's medical proxy, an insurance's guarantor. */
export const Guarantor = lazySchema(() =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    address: Address,
    phone_number: z.string(),
    household_income: z.number().int().nullish(),
    household_size: z.number().int().nullish(),
    email: z.string().nullish(),
  }),
);

export const UserInfo = lazySchema(() =>
  z.object({
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    phone_number: z.string(),
    gender: z.string(),
    dob: z.string(),
    address: Address,
    medical_proxy: Guarantor.nullable(),
    race: z.string().nullable(),
    ethnicity: z.string().nullable(),
    sexual_orientation: z.string().nullable(),
    gender_identity: z.string().nullable(),
  }),
);

export const Insurance = lazySchema(() =>
  z.object({
    member_id: z.string(),
    payor_code: z.string(),
    relationship: z.string(),
    insured: z.object({
      first_name: z.string(),
      last_name: z.string(),
      gender: z.string(),
      address: Address,
      dob: z.string(),
      email: z.string(),
      phone_number: z.string(),
    }),
    company: z.object({ name: z.string(), address: Address }),
    group_id: z.string().nullable(),
    guarantor: Guarantor.nullable(),
    is_primary: z.boolean(),
  }),
);

export const Device = lazySchema(() =>
  z.object({
    id: uuidString,
    user_id: uuidString,
    provider: z.string(),
    source_type: z.string(),
    app_id: z.string().nullable(),
    device_manufacturer: z.string().nullable(),
    device_model: z.string().nullable(),
    device_version: z.string().nullable(),
    device_id: z.string().nullable(),
  }),
);

export const TeamMetrics = lazySchema(() =>
  z.object({
    team_id: uuidString,
    number_of_connected_sources: z.number().int(),
    number_of_users: z.number().int(),
    number_of_errored_connected_sources: z.number().int(),
    number_of_connected_sources_by_week: z.array(z.object({ date: z.string(), value: z.number(), all: z.number() })),
    number_of_ordered_tests: z.number().int(),
  }),
);

export const RefreshResult = lazySchema(() =>
  z.object({
    success: z.boolean(),
    user_id: uuidString,
    refreshed_sources: z.array(z.string()),
    in_progress_sources: z.array(z.string()),
    failed_sources: z.array(z.string()),
  }),
);

/** The 400 of a refresh with nothing to refresh: not the house error body. */
export const RefreshRefused = lazySchema(() =>
  z.object({
    success: z.literal(false),
    user_id: uuidString,
    error: z.string(),
    failed_sources: z.array(z.string()),
  }),
);

export const SignInToken = lazySchema(() => z.object({ user_id: uuidString, sign_in_token: z.string() }));
export const ExpiringUrl = lazySchema(() => z.object({ url: z.string(), expires_in: z.number().int() }));
