/**
 * The continuous-query timeseries and index expressions (management OpenAPI
 * `DiscreteTimeseriesExpr` ... `NoteTimeseriesExpr`, `IndexColumnExpr`), as zod schemas built once,
 * transcribed from the reference; query-schema.ts assembles them into `Query`.
 */
import { z } from 'zod';
import { lazySchema } from '../../engine/lazy-schema.js';
/** The source fields (`SourceColumnExpr.source`, and the first of every timeseries `field`). */
export const SOURCE_FIELDS = [
  z.enum(['source_provider', 'source_type']),
  z.literal('source_app_id'),
  z.enum(['source_workout_id', 'source_sport']),
] as const;
/** A timeseries expression's `field`: the source fields, the sample's zone and type, then its own fields. */
const timeseriesField = <T extends readonly z.ZodType[]>(...own: T) =>
  z.union([...SOURCE_FIELDS, z.enum(['timezone_offset', 'type']), ...own]);
const DURATION_VALUE = lazySchema(() => z.enum(['duration', 'value']));

export const DiscreteTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.enum([
      'glucose',
      'heartrate',
      'hrv',
      'ige',
      'igg',
      'cholesterol',
      'weight',
      'fat',
      'blood_oxygen',
      'electrocardiogram_voltage',
      'respiratory_rate',
      'stress_level',
    ]),
    field: timeseriesField(z.literal('value')),
  }),
);
export const IntervalTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.enum([
      'steps',
      'distance',
      'vo2_max',
      'heart_rate_alert',
      'stand_hour',
      'sleep_breathing_disturbance',
      'water',
      'caffeine',
      'mindfulness_minutes',
      'calories_active',
      'floors_climbed',
      'calories_basal',
      'afib_burden',
      'stand_duration',
      'sleep_apnea_alert',
      'wheelchair_push',
      'forced_expiratory_volume_1',
      'forced_vital_capacity',
      'peak_expiratory_flow_rate',
      'inhaler_usage',
      'fall',
      'uv_exposure',
      'daylight_exposure',
      'handwashing',
      'basal_body_temperature',
      'body_mass_index',
      'lean_body_mass',
      'waist_circumference',
      'heart_rate_recovery_one_minute',
      'workout_swimming_stroke',
      'workout_distance',
      'carbohydrates',
    ]),
    field: timeseriesField(DURATION_VALUE),
  }),
);
export const InsulinInjectionTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('insulin_injection'),
    field: timeseriesField(DURATION_VALUE, z.enum(['delivery_mode', 'delivery_form', 'bolus_purpose'])),
  }),
);
export const BloodPressureTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('blood_pressure'),
    field: timeseriesField(z.enum(['systolic', 'diastolic'])),
  }),
);
export const TemperatureTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.enum(['body_temperature', 'body_temperature_delta']),
    field: timeseriesField(DURATION_VALUE, z.literal('sensor_location')),
  }),
);
export const WorkoutDurationTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('workout_duration'),
    field: timeseriesField(DURATION_VALUE, z.literal('intensity')),
  }),
);
export const NoteTimeseriesExpr = lazySchema(() =>
  z.object({ timeseries: z.literal('note'), field: timeseriesField(z.enum(['tags', 'content'])) }),
);
export const IndexColumnExpr = lazySchema(() =>
  z.object({
    index: z.enum(['sleep', 'derived_readiness', 'activity', 'workout', 'body', 'meal', 'menstrual_cycle', 'profile', 'timeseries']),
  }),
);
