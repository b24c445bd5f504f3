/**
 * The column catalogue of the aggregate query language (data OpenAPI `SleepColumnExpr`,
 * `ActivityColumnExpr`, ... `ProfileColumnExpr`, the value macros and the timeseries fields):
 * for each table, each column's type and how it is read from the summary the wearables area
 * generates for that row. Nothing here is stored: rows are built on read (rows.ts).
 */
import { MC_LIST_FIELDS } from '../management/query-schema.js';
import { MEAL_MICRONUTRIENT_COLUMNS } from '../management/query-table-columns.js';

export type ColumnType = 'float64' | 'int64' | 'string' | 'boolean' | 'date' | 'datetime' | 'list';

/** A row's fields as the tables read them: the summary object plus computed extras. */
export type Fields = Record<string, unknown>;

export interface Column {
  type: ColumnType;
  get(f: Fields): unknown;
}

export type TableName =
  | 'sleep'
  | 'derived_readiness'
  | 'activity'
  | 'workout'
  | 'body'
  | 'meal'
  | 'menstrual_cycle'
  | 'profile'
  | 'timeseries';

const path = (f: Fields, keys: string[]): unknown => {
  let v: unknown = f;
  for (const k of keys) {
    if (v === null || typeof v !== 'object') return null;
    v = (v as Record<string, unknown>)[k];
  }
  return v ?? null;
};
const col = (type: ColumnType, ...keys: string[]): Column => ({ type, get: (f) => path(f, keys) });
const f64 = (...keys: string[]) => col('float64', ...keys);
const i64 = (...keys: string[]) => col('int64', ...keys);
const str = (...keys: string[]) => col('string', ...keys);
const nul = (type: ColumnType): Column => ({ type, get: () => null });

/** Source columns every table has (`source_*` of the row's provider). */
const SOURCE: Record<string, Column> = {
  source_type: str('_source', 'source_type'),
  source_provider: str('_source', 'source_provider'),
  source_app_id: str('_source', 'source_app_id'),
  source_device_id: str('_source', 'source_device_id'),
};

const SLEEP: Record<string, Column> = {
  id: str('id'),
  session_start: str('bedtime_start'),
  session_end: str('bedtime_stop'),
  state: str('state'),
  type: str('type'),
  duration_second: i64('duration'),
  stage_asleep_second: i64('total'),
  stage_awake_second: i64('awake'),
  stage_light_second: i64('light'),
  stage_rem_second: i64('rem'),
  stage_deep_second: i64('deep'),
  stage_unknown_second: { type: 'int64', get: () => 0 },
  latency_second: i64('latency'),
  heart_rate_minimum: i64('hr_lowest'),
  heart_rate_mean: i64('hr_average'),
  heart_rate_maximum: i64('_hr_max'),
  heart_rate_dip: f64('hr_dip'),
  heart_rate_resting: i64('hr_resting'),
  efficiency: f64('efficiency'),
  hrv_mean_rmssd: f64('average_hrv'),
  hrv_mean_sdnn: nul('float64'),
  skin_temperature: f64('skin_temperature'),
  skin_temperature_delta: f64('temperature_delta'),
  respiratory_rate: f64('respiratory_rate'),
  score: i64('score'),
  recovery_readiness_score: i64('recovery_readiness_score'),
  ...SOURCE,
  time_zone: str('_zone'),
};

/** Value macros: computed from a sleep (the sleep table). */
export const MACROS: Record<string, Column> = {
  sleep_score: i64('score'),
  chronotype: str('_chronotype'),
  asleep_at: col('datetime', '_asleep_at'),
  awake_at: col('datetime', 'bedtime_stop'),
  awakenings: i64('_awakenings'),
};

const DERIVED_READINESS: Record<string, Column> = {
  date: col('date', 'calendar_date'),
  chronotype: str('_chronotype'),
  sleep_score: i64('score'),
  recovery_score: i64('_recovery_score'),
  recovery_zone: str('_recovery_zone'),
  stress_score: i64('_stress_score'),
  strain_score: f64('_strain_score'),
  strain_zone: str('_strain_zone'),
};

const ACTIVITY: Record<string, Column> = {
  date: col('date', 'calendar_date'),
  calories_total: f64('calories_total'),
  calories_active: f64('calories_active'),
  steps: i64('steps'),
  distance_meter: f64('distance'),
  floors_climbed: i64('floors_climbed'),
  duration_active_second: i64('_active_second'),
  intensity_sedentary_second: i64('_sedentary_second'),
  intensity_low_second: i64('_low_second'),
  intensity_medium_second: i64('_medium_second'),
  intensity_high_second: i64('_high_second'),
  heart_rate_mean: i64('heart_rate', 'avg_bpm'),
  heart_rate_minimum: i64('heart_rate', 'min_bpm'),
  heart_rate_maximum: i64('heart_rate', 'max_bpm'),
  heart_rate_resting: i64('heart_rate', 'resting_bpm'),
  heart_rate_mean_walking: i64('heart_rate', 'avg_walking_bpm'),
  wheelchair_use: col('boolean', 'wheelchair_use'),
  wheelchair_push: i64('wheelchair_push'),
  ...SOURCE,
  time_zone: str('time_zone'),
  time_zone_offset: i64('timezone_offset'),
};

const zone = (i: number): Column => ({ type: 'int64', get: (f) => (f.hr_zones as number[] | undefined)?.[i] ?? null });
const WORKOUT: Record<string, Column> = {
  session_start: col('datetime', 'time_start'),
  session_end: col('datetime', 'time_end'),
  title: str('title'),
  sport_name: str('sport', 'name'),
  sport_slug: str('sport', 'slug'),
  duration_active_second: i64('moving_time'),
  heart_rate_mean: i64('average_hr'),
  heart_rate_minimum: i64('_hr_min'),
  heart_rate_maximum: i64('max_hr'),
  heart_rate_zone_1: zone(0),
  heart_rate_zone_2: zone(1),
  heart_rate_zone_3: zone(2),
  heart_rate_zone_4: zone(3),
  heart_rate_zone_5: zone(4),
  heart_rate_zone_6: nul('int64'),
  distance_meter: f64('distance'),
  calories: f64('calories'),
  elevation_gain_meter: f64('total_elevation_gain'),
  elevation_maximum_meter: f64('elev_high'),
  elevation_minimum_meter: f64('elev_low'),
  speed_mean: f64('average_speed'),
  speed_maximum: f64('max_speed'),
  power_source: str('_power_source'),
  power_mean: f64('average_watts'),
  power_maximum: f64('max_watts'),
  power_weighted_mean: f64('weighted_average_watts'),
  steps: i64('steps'),
  map_polyline: str('map', 'polyline'),
  map_summary_polyline: str('map', 'summary_polyline'),
  ...SOURCE,
  external_id: str('provider_id'),
  time_zone: str('_zone'),
};

const BODY: Record<string, Column> = {
  measured_at: col('datetime', 'created_at'),
  weight_kilogram: f64('weight'),
  fat_mass_percentage: f64('fat'),
  water_percentage: f64('water_percentage'),
  muscle_mass_percentage: f64('muscle_mass_percentage'),
  visceral_fat_index: f64('visceral_fat_index'),
  bone_mass_percentage: f64('bone_mass_percentage'),
  body_mass_index: f64('body_mass_index'),
  lean_body_mass_kilogram: f64('lean_body_mass_kilogram'),
  waist_circumference_centimeter: f64('waist_circumference_centimeter'),
  ...SOURCE,
  time_zone: str('_zone'),
};

const MEAL: Record<string, Column> = {
  calories: f64('energy', 'value'),
  carbohydrate_gram: f64('macros', 'carbs'),
  protein_gram: f64('macros', 'protein'),
  alcohol_gram: f64('macros', 'alcohol'),
  water_gram: f64('macros', 'water'),
  fibre_gram: f64('macros', 'fibre'),
  sugar_gram: f64('macros', 'sugar'),
  cholesterol_gram: f64('macros', 'cholesterol'),
  saturated_fat_gram: f64('macros', 'fats', 'saturated'),
  monounsaturated_fat_gram: f64('macros', 'fats', 'monounsaturated'),
  polyunsaturated_fat_gram: f64('macros', 'fats', 'polyunsaturated'),
  omega3_fat_gram: f64('macros', 'fats', 'omega3'),
  omega6_fat_gram: f64('macros', 'fats', 'omega6'),
  total_fat_gram: f64('macros', 'fats', 'total'),
  ...Object.fromEntries(MEAL_MICRONUTRIENT_COLUMNS.map((m) => [m, nul('float64')])),
  date: col('date', 'calendar_date'),
  name: str('name'),
  ...SOURCE,
};

/** List columns of a menstrual cycle (unnest targets) and their struct fields. */
export const MC_LISTS: Readonly<Record<string, readonly string[]>> = MC_LIST_FIELDS;
const MENSTRUAL_CYCLE: Record<string, Column> = {
  period_start: col('date', 'period_start'),
  period_end: col('date', 'period_end'),
  cycle_end: col('date', 'cycle_end'),
  is_predicted: col('boolean', 'is_predicted'),
  ...Object.fromEntries(Object.keys(MC_LISTS).map((k) => [k, col('list', k)])),
  ...SOURCE,
};

const PROFILE: Record<string, Column> = {
  height_centimeter: f64('height'),
  birth_date: col('date', 'birth_date'),
  wheelchair_use: col('boolean', 'wheelchair_use'),
  gender: str('gender'),
  sex: str('sex'),
  ...SOURCE,
  created_at: col('datetime', 'created_at'),
  updated_at: col('datetime', 'updated_at'),
};

export const TABLE_COLUMNS: Record<Exclude<TableName, 'timeseries'>, Record<string, Column>> = {
  sleep: SLEEP,
  derived_readiness: DERIVED_READINESS,
  activity: ACTIVITY,
  workout: WORKOUT,
  body: BODY,
  meal: MEAL,
  menstrual_cycle: MENSTRUAL_CYCLE,
  profile: PROFILE,
};

/** Fields of a timeseries sample (the `field` of the timeseries expressions). */
export const TIMESERIES_FIELDS: Record<string, Column> = {
  source_provider: str('_source', 'source_provider'),
  source_type: str('_source', 'source_type'),
  source_app_id: str('_source', 'source_app_id'),
  source_workout_id: str('_source', 'source_workout_id'),
  source_sport: str('_source', 'source_sport'),
  timezone_offset: i64('timezone_offset'),
  type: str('type'),
  value: f64('value'),
  duration: f64('_duration'),
  systolic: f64('systolic'),
  diastolic: f64('diastolic'),
  sensor_location: str('sensor_location'),
  intensity: str('intensity'),
  delivery_mode: str('delivery_mode'),
  delivery_form: str('delivery_form'),
  bolus_purpose: str('bolus_purpose'),
  tags: col('list', 'tags'),
  // A note's text is the rendered sample's `value`.
  content: { type: 'string', get: (f) => (typeof f.value === 'string' ? f.value : ((f.content as string | undefined) ?? null)) },
};

/** The source columns of `SourceColumnExpr` (any table). */
export const SOURCE_COLUMNS: Record<string, Column> = {
  source_provider: str('_source', 'source_provider'),
  source_type: str('_source', 'source_type'),
  source_app_id: str('_source', 'source_app_id'),
  source_workout_id: str('_source', 'source_workout_id'),
  source_sport: str('_source', 'source_sport'),
};

/** The resource (client-facing `Resource`) a table reads. */
export const TABLE_RESOURCE: Record<Exclude<TableName, 'timeseries'>, string> = {
  sleep: 'sleep',
  derived_readiness: 'sleep',
  activity: 'activity',
  workout: 'workouts',
  body: 'body',
  meal: 'meal',
  menstrual_cycle: 'menstrual_cycle',
  profile: 'profile',
};
