/**
 * The continuous-query table column and value-macro expressions (management OpenAPI
 * `SleepColumnExpr` ... `ProfileColumnExpr`, `SleepScoreValueMacroExpr` ...), as zod schemas built
 * once, transcribed from the reference; query-schema.ts assembles them into `Query`.
 */
import { z } from 'zod';
import { lazySchema } from '../../engine/lazy-schema.js';
export const SleepColumnExpr = lazySchema(() =>
  z.object({
    sleep: z.enum([
      'id',
      'session_start',
      'session_end',
      'state',
      'type',
      'duration_second',
      'stage_asleep_second',
      'stage_awake_second',
      'stage_light_second',
      'stage_rem_second',
      'stage_deep_second',
      'stage_unknown_second',
      'latency_second',
      'heart_rate_minimum',
      'heart_rate_mean',
      'heart_rate_maximum',
      'heart_rate_dip',
      'heart_rate_resting',
      'efficiency',
      'hrv_mean_rmssd',
      'hrv_mean_sdnn',
      'skin_temperature',
      'skin_temperature_delta',
      'respiratory_rate',
      'score',
      'recovery_readiness_score',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
      'time_zone',
    ]),
  }),
);
export const DerivedReadinessColumnExpr = lazySchema(() =>
  z.object({
    derived_readiness: z.enum([
      'date',
      'chronotype',
      'sleep_score',
      'recovery_score',
      'recovery_zone',
      'stress_score',
      'strain_score',
      'strain_zone',
    ]),
  }),
);
export const ActivityColumnExpr = lazySchema(() =>
  z.object({
    activity: z.enum([
      'date',
      'calories_total',
      'calories_active',
      'steps',
      'distance_meter',
      'floors_climbed',
      'duration_active_second',
      'intensity_sedentary_second',
      'intensity_low_second',
      'intensity_medium_second',
      'intensity_high_second',
      'heart_rate_mean',
      'heart_rate_minimum',
      'heart_rate_maximum',
      'heart_rate_resting',
      'heart_rate_mean_walking',
      'wheelchair_use',
      'wheelchair_push',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
      'time_zone',
      'time_zone_offset',
    ]),
  }),
);
export const WorkoutColumnExpr = lazySchema(() =>
  z.object({
    workout: z.enum([
      'session_start',
      'session_end',
      'title',
      'sport_name',
      'sport_slug',
      'duration_active_second',
      'heart_rate_mean',
      'heart_rate_minimum',
      'heart_rate_maximum',
      'heart_rate_zone_1',
      'heart_rate_zone_2',
      'heart_rate_zone_3',
      'heart_rate_zone_4',
      'heart_rate_zone_5',
      'heart_rate_zone_6',
      'distance_meter',
      'calories',
      'elevation_gain_meter',
      'elevation_maximum_meter',
      'elevation_minimum_meter',
      'speed_mean',
      'speed_maximum',
      'power_source',
      'power_mean',
      'power_maximum',
      'power_weighted_mean',
      'steps',
      'map_polyline',
      'map_summary_polyline',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
      'external_id',
      'time_zone',
    ]),
  }),
);
export const BodyColumnExpr = lazySchema(() =>
  z.object({
    body: z.enum([
      'measured_at',
      'weight_kilogram',
      'fat_mass_percentage',
      'water_percentage',
      'muscle_mass_percentage',
      'visceral_fat_index',
      'bone_mass_percentage',
      'body_mass_index',
      'lean_body_mass_kilogram',
      'waist_circumference_centimeter',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
      'time_zone',
    ]),
  }),
);
/** The meal table's micronutrient columns (part of `MealColumnExpr`; the sandbox's meals record none). */
export const MEAL_MICRONUTRIENT_COLUMNS = [
  'sodium_milligram',
  'potassium_milligram',
  'calcium_milligram',
  'phosphorus_milligram',
  'magnesium_milligram',
  'iron_milligram',
  'zinc_milligram',
  'fluoride_milligram',
  'chloride_milligram',
  'vitamin_a_milligram',
  'vitamin_b1_milligram',
  'riboflavin_milligram',
  'niacin_milligram',
  'pantothenic_acid_milligram',
  'vitamin_b6_milligram',
  'biotin_microgram',
  'vitamin_b12_microgram',
  'vitamin_c_milligram',
  'vitamin_d_microgram',
  'vitamin_e_milligram',
  'vitamin_k_microgram',
  'folic_acid_microgram',
  'chromium_microgram',
  'copper_milligram',
  'iodine_microgram',
  'manganese_milligram',
  'molybdenum_microgram',
  'selenium_microgram',
] as const;
export const MealColumnExpr = lazySchema(() =>
  z.object({
    meal: z.enum([
      'calories',
      'carbohydrate_gram',
      'protein_gram',
      'alcohol_gram',
      'water_gram',
      'fibre_gram',
      'sugar_gram',
      'cholesterol_gram',
      'saturated_fat_gram',
      'monounsaturated_fat_gram',
      'polyunsaturated_fat_gram',
      'omega3_fat_gram',
      'omega6_fat_gram',
      'total_fat_gram',
      ...MEAL_MICRONUTRIENT_COLUMNS,
      'date',
      'name',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
    ]),
  }),
);
export const MenstrualCycleColumnExpr = lazySchema(() =>
  z.object({
    menstrual_cycle: z.enum([
      'period_start',
      'period_end',
      'cycle_end',
      'is_predicted',
      'menstrual_flow',
      'cervical_mucus',
      'intermenstrual_bleeding',
      'contraceptive',
      'detected_deviations',
      'ovulation_test',
      'home_pregnancy_test',
      'home_progesterone_test',
      'sexual_activity',
      'basal_body_temperature',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
    ]),
  }),
);
export const ProfileColumnExpr = lazySchema(() =>
  z.object({
    profile: z.enum([
      'height_centimeter',
      'birth_date',
      'wheelchair_use',
      'gender',
      'sex',
      'source_type',
      'source_provider',
      'source_app_id',
      'source_device_id',
      'created_at',
      'updated_at',
    ]),
  }),
);
/** A value macro of the reference (`SleepScoreValueMacroExpr`, ...): its name, version `automatic`. */
const valueMacro = <N extends string>(name: N) =>
  z.object({ value_macro: z.literal(name), version: z.literal('automatic').default('automatic') });
export const SleepScoreValueMacroExpr = lazySchema(() => valueMacro('sleep_score'));
export const ChronotypeValueMacroExpr = lazySchema(() => valueMacro('chronotype'));
export const AsleepAtValueMacroExpr = lazySchema(() => valueMacro('asleep_at'));
export const AwakeAtValueMacroExpr = lazySchema(() => valueMacro('awake_at'));
export const AwakeningsValueMacroExpr = lazySchema(() => valueMacro('awakenings'));
export const UnrecognizedValueMacroExpr = lazySchema(() => z.object({ value_macro: z.string() }));
