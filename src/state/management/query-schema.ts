/**
 * The continuous-query request schema (management OpenAPI `Query`, `QueryConfig`,
 * `ContinuousQuerySchedulingPreferences`, `ContinuousQueryExportPreferences` and every
 * expression they use), as zod schemas built once at module load, transcribed from the reference's
 * component schemas (pydantic semantics: unknown keys ignored except where the reference forbids
 * them). What the reference repeats is built once here: the list of column expressions every slot
 * takes, the source fields of the timeseries, the value macros, the menstrual-cycle field table.
 */
/* eslint-disable */
import { z } from 'zod';
import { LABS, PROVIDERS } from './provider-enums.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const SleepColumnExpr = lazySchema(() =>
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
const DerivedReadinessColumnExpr = lazySchema(() =>
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
const ActivityColumnExpr = lazySchema(() =>
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
const WorkoutColumnExpr = lazySchema(() =>
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
const BodyColumnExpr = lazySchema(() =>
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
const MealColumnExpr = lazySchema(() =>
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
const MenstrualCycleColumnExpr = lazySchema(() =>
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
const ProfileColumnExpr = lazySchema(() =>
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
const SleepScoreValueMacroExpr = lazySchema(() => valueMacro('sleep_score'));
const ChronotypeValueMacroExpr = lazySchema(() => valueMacro('chronotype'));
const AsleepAtValueMacroExpr = lazySchema(() => valueMacro('asleep_at'));
const AwakeAtValueMacroExpr = lazySchema(() => valueMacro('awake_at'));
const AwakeningsValueMacroExpr = lazySchema(() => valueMacro('awakenings'));
const UnrecognizedValueMacroExpr = lazySchema(() => z.object({ value_macro: z.string() }));

/** The source fields (`SourceColumnExpr.source`, and the first of every timeseries `field`). */
const SOURCE_FIELDS = [
  z.enum(['source_provider', 'source_type']),
  z.literal('source_app_id'),
  z.enum(['source_workout_id', 'source_sport']),
] as const;
/** A timeseries expression's `field`: the source fields, the sample's zone and type, then its own fields. */
const timeseriesField = <T extends readonly z.ZodType[]>(...own: T) =>
  z.union([...SOURCE_FIELDS, z.enum(['timezone_offset', 'type']), ...own]);
const DURATION_VALUE = lazySchema(() => z.enum(['duration', 'value']));

const DiscreteTimeseriesExpr = lazySchema(() =>
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
const IntervalTimeseriesExpr = lazySchema(() =>
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
const InsulinInjectionTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('insulin_injection'),
    field: timeseriesField(DURATION_VALUE, z.enum(['delivery_mode', 'delivery_form', 'bolus_purpose'])),
  }),
);
const BloodPressureTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('blood_pressure'),
    field: timeseriesField(z.enum(['systolic', 'diastolic'])),
  }),
);
const TemperatureTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.enum(['body_temperature', 'body_temperature_delta']),
    field: timeseriesField(DURATION_VALUE, z.literal('sensor_location')),
  }),
);
const WorkoutDurationTimeseriesExpr = lazySchema(() =>
  z.object({
    timeseries: z.literal('workout_duration'),
    field: timeseriesField(DURATION_VALUE, z.literal('intensity')),
  }),
);
const NoteTimeseriesExpr = lazySchema(() =>
  z.object({ timeseries: z.literal('note'), field: timeseriesField(z.enum(['tags', 'content'])) }),
);
const IndexColumnExpr = lazySchema(() =>
  z.object({
    index: z.enum(['sleep', 'derived_readiness', 'activity', 'workout', 'body', 'meal', 'menstrual_cycle', 'profile', 'timeseries']),
  }),
);

/**
 * The list columns of a menstrual cycle and the fields of their items, in the reference's order
 * (`MCMenstrualFlowFieldExpr` ... `MCBasalBodyTemperatureFieldExpr`); the aggregate planner reads
 * the same table (`MC_LISTS`).
 */
export const MC_LIST_FIELDS: Readonly<Record<string, readonly [string, ...string[]]>> = {
  menstrual_flow: ['date', 'flow'],
  cervical_mucus: ['date', 'quality'],
  intermenstrual_bleeding: ['date'],
  contraceptive: ['date', 'type'],
  detected_deviations: ['date', 'deviation'],
  ovulation_test: ['date', 'test_result'],
  home_pregnancy_test: ['date', 'test_result'],
  home_progesterone_test: ['date', 'test_result'],
  sexual_activity: ['date', 'protection_used'],
  basal_body_temperature: ['date', 'value'],
};
/** `MC<List>FieldExpr`: `{field_for: "menstrual_cycle", <list>: <field>}`, nothing else (a single field is a literal). */
const mcFieldExprs = () =>
  Object.entries(MC_LIST_FIELDS).map(([list, fields]) =>
    z.strictObject({
      field_for: z.literal('menstrual_cycle').default('menstrual_cycle'),
      [list]: fields.length === 1 ? z.literal(fields[0]) : z.enum(fields),
    }),
  );
const ElementFieldExpr = lazySchema(() => z.strictObject({ element: z.literal(true) }));
const AGGREGATE_FUNCS = ['mean', 'min', 'max', 'sum', 'count', 'median', 'stddev', 'oldest', 'newest'] as const;
const AggregateFieldExpr = lazySchema(() =>
  z.object({
    func: z.enum(AGGREGATE_FUNCS),
    arg: z.union([...mcFieldExprs(), ElementFieldExpr]).nullish(),
  }),
);
const Placeholder = lazySchema(() => z.object({ placeholder: z.literal(true) }));
/** The column, value-macro and timeseries expressions, in the reference's order: what every slot of a query takes. */
const COLUMN_EXPRS = [
  SleepColumnExpr,
  DerivedReadinessColumnExpr,
  ActivityColumnExpr,
  WorkoutColumnExpr,
  BodyColumnExpr,
  MealColumnExpr,
  MenstrualCycleColumnExpr,
  ProfileColumnExpr,
  SleepScoreValueMacroExpr,
  ChronotypeValueMacroExpr,
  AsleepAtValueMacroExpr,
  AwakeAtValueMacroExpr,
  AwakeningsValueMacroExpr,
  UnrecognizedValueMacroExpr,
  DiscreteTimeseriesExpr,
  IntervalTimeseriesExpr,
  InsulinInjectionTimeseriesExpr,
  BloodPressureTimeseriesExpr,
  TemperatureTimeseriesExpr,
  WorkoutDurationTimeseriesExpr,
  NoteTimeseriesExpr,
] as const;
const UnnestExpr = lazySchema(() => z.object({ unnest: z.union(COLUMN_EXPRS) }));
const ScalarOutputSubqueryExpr_Input = lazySchema(() =>
  z.object({
    select: z.union([AggregateFieldExpr, Placeholder]),
    from: z.union([UnnestExpr, Placeholder]),
    where: z.string().nullish(),
  }),
);
const AggregateExpr_Input = lazySchema(() =>
  z.object({
    arg: z.union([...COLUMN_EXPRS, IndexColumnExpr, ScalarOutputSubqueryExpr_Input]),
    func: z.enum(AGGREGATE_FUNCS),
  }),
);
const GroupKeyColumnExpr = lazySchema(() => z.object({ group_key: z.union([z.number().int(), z.literal('*')]) }));
const SourceColumnExpr = lazySchema(() => z.object({ source: z.union(SOURCE_FIELDS) }));
const PERIOD_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
const Period = lazySchema(() => z.object({ value: z.number().int().min(1).default(1), unit: z.enum(PERIOD_UNITS) }));
const DateTruncExpr = lazySchema(() => z.object({ date_trunc: Period, arg: z.union([IndexColumnExpr, Placeholder]) }));
const DatePartExpr = lazySchema(() =>
  z.object({
    arg: z.union([IndexColumnExpr, Placeholder]),
    date_part: z.union([z.enum(PERIOD_UNITS), z.enum(['weekday', 'week_of_year', 'day_of_year'])]),
  }),
);
const CarryForwardExpr = lazySchema(() => z.strictObject({ mode: z.literal('carry_forward'), max_age: Period.nullish() }));
const CarryBackwardExpr = lazySchema(() => z.strictObject({ mode: z.literal('carry_backward'), max_age: Period.nullish() }));
const CarryNearestExpr = lazySchema(() => z.strictObject({ mode: z.literal('carry_nearest'), span: Period.nullish() }));
const AlignExpr_Input = lazySchema(() => z.strictObject({ carry: z.union([CarryForwardExpr, CarryBackwardExpr, CarryNearestExpr]) }));
const Query_Input = lazySchema(() =>
  z.object({
    select: z.array(
      z.union([
        AggregateExpr_Input,
        GroupKeyColumnExpr,
        ...COLUMN_EXPRS,
        IndexColumnExpr,
        ScalarOutputSubqueryExpr_Input,
        SourceColumnExpr,
      ]),
    ),
    group_by: z.array(z.union([DateTruncExpr, DatePartExpr, ...COLUMN_EXPRS, SourceColumnExpr])).optional(),
    where: z.string().nullish(),
    align: AlignExpr_Input.nullish(),
  }),
);
const Providers = lazySchema(() => z.enum(PROVIDERS));
const Labs = lazySchema(() => z.enum(LABS));
const QueryConfig = lazySchema(() => z.object({ provider_priority_overrides: z.array(z.union([Providers, Labs])).nullish() }));
const ContinuousQuerySchedulingPreferences = lazySchema(() =>
  z.object({ minimum_gap_duration_second: z.number().int().min(1800).nullish() }),
);
const ContinuousQueryDataEventPreferences = lazySchema(() => z.object({ enabled: z.boolean().default(true) }));
const ContinuousQueryExportPreferences = lazySchema(() =>
  z.object({
    data_events: ContinuousQueryDataEventPreferences.optional(),
    fhir_observations: z.boolean().default(false),
  }),
);

export const querySchema = Query_Input;
export const queryConfigSchema = QueryConfig;
export const schedulingSchema = ContinuousQuerySchedulingPreferences;
export const exportSchema = ContinuousQueryExportPreferences;
export type Query = z.infer<typeof querySchema>;

// Data OpenAPI `QueryBatch` (POST /aggregate/v1/user/{user_id}/query): the same `Query` and
// `QueryConfig`, plus the timeframe.
const RelativeTimeframe = lazySchema(() => z.object({ type: z.literal('relative'), anchor: z.iso.date(), past: Period }));
const QueryBatch = lazySchema(() =>
  z.object({
    timeframe: z.union([RelativeTimeframe, Placeholder]),
    queries: z.array(Query_Input),
    config: QueryConfig.optional(),
  }),
);

export const queryBatchSchema = QueryBatch;
export type QueryBatch = z.infer<typeof queryBatchSchema>;
