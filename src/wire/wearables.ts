/** Wearables: providers, connections, summaries (activity, sleep, body, workouts, ...), timeseries. */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';
import { calendarDate, dateTime, JsonObject, ProviderRef, Source, uuidString } from './common.js';

export const Provider = lazySchema(() =>
  z.object({
    name: z.string(),
    slug: z.string(),
    description: z.string(),
    logo: z.string(),
    auth_type: z.string(),
    supported_resources: z.array(z.string()),
  }),
);

const ScopeRequirements = lazySchema(() => z.object({ required: z.array(z.string()), optional: z.array(z.string()) }));
/** ScopeRequirementsGrants: the scopes a resource needs, split by the user's grant. */
const ScopeRequirementsGrants = lazySchema(() => z.object({ user_granted: ScopeRequirements, user_denied: ScopeRequirements }));
export const ResourceAvailability = lazySchema(() =>
  z.record(z.string(), z.object({ status: z.string(), scope_requirements: ScopeRequirementsGrants.nullable() })),
);

/** A user's connection to a provider (`GET /v2/user/providers/{user_id}`). */
export const Connection = lazySchema(() =>
  z.object({
    name: z.string(),
    slug: z.string(),
    logo: z.string(),
    created_on: dateTime,
    status: z.string(),
    external_user_id: z.string().nullable(),
    error_details: z.object({ error_type: z.string(), error_message: z.string(), errored_at: dateTime }).nullable(),
    resource_availability: ResourceAvailability,
  }),
);

const summaryBase = { id: uuidString, user_id: uuidString, source: Source, created_at: dateTime, updated_at: dateTime };

export const ActivitySummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    date: z.string(),
    calendar_date: calendarDate,
    calories_total: z.number().nullable(),
    calories_active: z.number().nullable(),
    steps: z.number().nullable(),
    daily_movement: z.number().nullable(),
    distance: z.number().nullable(),
    low: z.number().nullable(),
    medium: z.number().nullable(),
    high: z.number().nullable(),
    floors_climbed: z.number().nullable(),
    time_zone: z.string().nullable(),
    timezone_offset: z.number().int().nullable(),
    wheelchair_use: z.boolean().nullable(),
    wheelchair_push: z.number().nullable(),
    heart_rate: z
      .object({
        avg_bpm: z.number().nullable(),
        min_bpm: z.number().nullable(),
        max_bpm: z.number().nullable(),
        resting_bpm: z.number().nullable(),
        avg_walking_bpm: z.number().nullable(),
      })
      .nullable(),
  }),
);

export const SleepSummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    date: z.string(),
    calendar_date: calendarDate,
    bedtime_start: dateTime,
    bedtime_stop: dateTime,
    type: z.string(),
    timezone_offset: z.number().int().nullable(),
    duration: z.number(),
    total: z.number(),
    awake: z.number(),
    light: z.number(),
    rem: z.number(),
    deep: z.number(),
    score: z.number().nullable(),
    recovery_readiness_score: z.number().nullable(),
    temperature_delta: z.number().nullable(),
    skin_temperature: z.number().nullable(),
    hr_dip: z.number().nullable(),
    hr_lowest: z.number().nullable(),
    hr_average: z.number().nullable(),
    hr_resting: z.number().nullable(),
    efficiency: z.number().nullable(),
    latency: z.number().nullable(),
    state: z.string().nullable(),
    average_hrv: z.number().nullable(),
    respiratory_rate: z.number().nullable(),
    sleep_stream: z.unknown().nullable(),
  }),
);

export const BodySummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    date: z.string(),
    calendar_date: calendarDate,
    weight: z.number().nullable(),
    fat: z.number().nullable(),
    body_mass_index: z.number().nullable(),
    lean_body_mass_kilogram: z.number().nullable(),
    water_percentage: z.number().nullable(),
    muscle_mass_percentage: z.number().nullable(),
    visceral_fat_index: z.number().nullable(),
    bone_mass_percentage: z.number().nullable(),
    waist_circumference_centimeter: z.number().nullable(),
  }),
);

const Sport = lazySchema(() => z.object({ id: z.number().int(), name: z.string(), slug: z.string() }));

export const WorkoutSummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    // ClientFacingSource's `sport`: the reference documents it for workout streams; the sandbox's
    // workout summaries carry the workout's sport slug there too.
    source: Source.extend({ sport: z.string().nullish() }),
    title: z.string().nullable(),
    timezone_offset: z.number().int().nullable(),
    average_hr: z.number().nullable(),
    max_hr: z.number().nullable(),
    distance: z.number().nullable(),
    calendar_date: calendarDate,
    time_start: dateTime,
    time_end: dateTime,
    calories: z.number().nullable(),
    sport: Sport,
    hr_zones: z.array(z.number()).nullable(),
    moving_time: z.number().nullable(),
    total_elevation_gain: z.number().nullable(),
    elev_high: z.number().nullable(),
    elev_low: z.number().nullable(),
    average_speed: z.number().nullable(),
    max_speed: z.number().nullable(),
    average_watts: z.number().nullable(),
    device_watts: z.number().nullable(),
    max_watts: z.number().nullable(),
    weighted_average_watts: z.number().nullable(),
    steps: z.number().nullable(),
    map: z.object({ polyline: z.string().nullish(), summary_polyline: z.string().nullish() }).nullable(),
    provider_id: z.string(),
  }),
);

export const MealSummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    /** Deprecated in the reference: `priority_id` and `source_id` have no meaning, `provider_id` is the `id`. */
    priority_id: z.number().int(),
    source_id: z.number().int(),
    provider_id: z.string(),
    source_app_id: z.string().nullish(),
    source_device_id: z.string().nullish(),
    timestamp: dateTime,
    calendar_date: calendarDate,
    name: z.string(),
    energy: z.object({ unit: z.string(), value: z.number() }).nullable(),
    macros: JsonObject.nullable(),
    micros: JsonObject.nullable(),
    data: z.record(z.string(), JsonObject).nullable(),
  }),
);

/** Fields of the newer summaries (menstrual cycle, sleep cycle, ECG): where the data came from. */
const sourceFields = {
  source_provider: z.string(),
  source_type: z.string(),
  source_app_id: z.string().nullable(),
  source_device_id: z.string().nullable(),
};

export const MenstrualCycle = lazySchema(() =>
  z.object({
    ...summaryBase,
    ...sourceFields,
    period_start: calendarDate,
    period_end: calendarDate.nullable(),
    cycle_end: calendarDate.nullable(),
    is_predicted: z.boolean().nullable(),
    menstrual_flow: z.array(z.object({ date: calendarDate, flow: z.string() })),
    cervical_mucus: z.array(z.object({ date: calendarDate, quality: z.string() })).optional(),
    intermenstrual_bleeding: z.array(z.object({ date: calendarDate })).optional(),
    contraceptive: z.array(z.object({ date: calendarDate, type: z.string() })).optional(),
    detected_deviations: z.array(z.object({ date: calendarDate, deviation: z.string() })).optional(),
    ovulation_test: z.array(z.object({ date: calendarDate, test_result: z.string() })).optional(),
    home_pregnancy_test: z.array(z.object({ date: calendarDate, test_result: z.string() })).optional(),
    home_progesterone_test: z.array(z.object({ date: calendarDate, test_result: z.string() })).optional(),
    sexual_activity: z.array(z.object({ date: calendarDate, protection_used: z.boolean().nullish() })).optional(),
    basal_body_temperature: z.array(z.object({ date: calendarDate, value: z.number() })),
  }),
);

export const SleepCycle = lazySchema(() =>
  z.object({
    ...summaryBase,
    ...sourceFields,
    sleep_id: uuidString,
    session_start: dateTime,
    session_end: dateTime,
    stage_start_offset_second: z.array(z.number().int()),
    stage_end_offset_second: z.array(z.number().int()),
    stage_type: z.array(z.number().int()),
    time_zone: z.string().nullable(),
  }),
);

export const ElectrocardiogramSummary = lazySchema(() =>
  z.object({
    ...summaryBase,
    ...sourceFields,
    session_start: dateTime,
    session_end: dateTime,
    voltage_sample_count: z.number().int(),
    heart_rate_mean: z.number().nullable(),
    sampling_frequency_hz: z.number().nullable(),
    classification: z.string().nullable(),
    inconclusive_cause: z.string().nullable(),
    algorithm_version: z.string().nullable(),
    time_zone: z.string().nullable(),
    source_device_model: z.string().nullable(),
  }),
);

/** A summary wrapped in its raw provider record (`/raw` variants). */
export const RawSummary = lazySchema(() =>
  z.object({
    timestamp: z.string().optional(),
    data: JsonObject,
    user_id: uuidString,
    provider_id: z.string(),
    source_id: z.number().int(),
    /** Deprecated in the reference ("this value has no meaning"). */
    priority_id: z.number().int().nullish(),
    id: uuidString,
    created_at: dateTime.optional(),
    updated_at: dateTime.optional(),
    source: ProviderRef,
    source_device_id: uuidString.nullish(),
  }),
);

/** RawWorkout: the raw record with its sport. */
export const RawWorkoutSummary = lazySchema(() => RawSummary.extend({ sport_id: z.number().int(), sport: Sport }));

export const Profile = lazySchema(() =>
  z.object({
    id: uuidString,
    user_id: uuidString,
    height: z.number().nullable(),
    birth_date: z.string().nullable(),
    wheelchair_use: z.boolean().nullable(),
    gender: z.string().nullable(),
    sex: z.string().nullable(),
    source: Source,
    created_at: dateTime,
    updated_at: dateTime,
  }),
);

export const RawProfile = lazySchema(() => z.object({ profile: RawSummary.omit({ timestamp: true, provider_id: true }) }));
export const RawDevices = lazySchema(() =>
  z.object({
    devices: z.array(
      z.object({
        data: JsonObject,
        provider_id: z.string(),
        user_id: uuidString,
        source_id: z.number().int(),
        id: uuidString,
        source: ProviderRef,
      }),
    ),
  }),
);

/** One timeseries sample: a value at a time (or over `start`..`end`); blood pressure has systolic/diastolic. */
export const TimeseriesSample = lazySchema(() =>
  z.object({
    timestamp: dateTime,
    start: dateTime.optional(),
    end: dateTime.optional(),
    timezone_offset: z.number().int().nullable(),
    type: z.string().nullable(),
    unit: z.string(),
    value: z.number().optional(),
    systolic: z.number().optional(),
    diastolic: z.number().optional(),
    /** Body temperature samples (ClientFacingBodyTemperatureSample). */
    sensor_location: z.string().nullish(),
    /** Workout duration samples (ClientFacingWorkoutDurationSample). */
    intensity: z.string().nullish(),
    /** Insulin injection samples (ClientFacingInsulinInjectionSample). */
    delivery_mode: z.string().nullish(),
    delivery_form: z.string().nullish(),
    bolus_purpose: z.string().nullish(),
  }),
);

/** `{groups: {provider: [{source, data}]}, next, next_cursor}`. */
export const GroupedTimeseries = lazySchema(() =>
  z.object({
    groups: z.record(z.string(), z.array(z.object({ source: Source, data: z.array(TimeseriesSample) }))),
    next: z.string().nullable(),
    next_cursor: z.string().nullable(),
  }),
);

/** A workout's stream: parallel arrays (`time`, `heartrate`, `velocity_smooth`, ...). */
export const WorkoutStream = lazySchema(() => z.record(z.string(), z.array(z.number().nullable())));
/** A sleep's stream: series by kind. */
export const SleepStream = lazySchema(() => z.record(z.string(), z.array(JsonObject)));

/** A page of introspection (`{data, next, next_cursor}`), `provider` mapping each provider slug to `T`. */
const introspectPage = <T extends z.ZodType>(perProvider: T) =>
  z.object({
    data: z.array(z.object({ user_id: uuidString, provider: z.record(z.string(), perProvider) })),
    next: z.string().nullable(),
    next_cursor: z.string().nullable(),
  });

/** SingleHistoricalPullStatistics: one pulled resource of a connection. */
const HistoricalPullStatistics = lazySchema(() =>
  z.object({
    status: z.string(),
    range_start: dateTime.nullable(),
    range_end: dateTime.nullable(),
    timeline: z.object({ scheduled_at: dateTime, started_at: dateTime.nullable(), ended_at: dateTime.nullable() }),
    days_with_data: z.number().int(),
    release: z.string(),
    trace_id: z.string().nullable(),
    error_details: z.string().nullable(),
  }),
);

/** UserHistoricalPullsResponse (SingleProviderHistoricalPullResponse per provider). */
export const HistoricalPullsPage = lazySchema(() =>
  introspectPage(z.object({ pulled: z.record(z.string(), HistoricalPullStatistics), not_pulled: z.array(z.string()) })),
);

/** SingleResourceStatistics: one resource of a connection. */
const ResourceStatistics = lazySchema(() =>
  z.object({
    last_attempt: z.object({ timestamp: dateTime, status: z.string() }).nullable(),
    oldest_data: dateTime.nullable(),
    newest_data: dateTime.nullable(),
    sent_count: z.number().int().nullable(),
  }),
);

/** UserResourcesResponse (resource to SingleResourceStatistics per provider). */
export const ResourcesPage = lazySchema(() => introspectPage(z.record(z.string(), ResourceStatistics)));

export const FeedState = lazySchema(() =>
  z.object({
    enabled: z.boolean(),
    mode: z.string(),
    interval_seconds: z.number().int(),
    revision_rate: z.number(),
    team_revision_rates: z.record(z.string(), z.number()),
  }),
);
/** `GET|POST /_sandbox/wearables/health-sdk`: the Health SDK's connection policy, sandbox-wide and per team environment. */
export const HealthSdkSettings = lazySchema(() => {
  const policy = z.enum(['auto', 'explicit']);
  return z.object({
    connection_policy: policy,
    team_connection_policies: z.record(z.string(), z.object({ sandbox: policy, production: policy })),
  });
});
export const HistoricalPullForced = lazySchema(() =>
  z.object({
    applies_to: z.string(),
    user_id: uuidString,
    provider: z.string(),
    resources: z.array(z.string()).nullable(),
    outcome: z.string(),
  }),
);
