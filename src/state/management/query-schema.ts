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

import {
  ActivityColumnExpr,
  AsleepAtValueMacroExpr,
  AwakeAtValueMacroExpr,
  AwakeningsValueMacroExpr,
  BodyColumnExpr,
  ChronotypeValueMacroExpr,
  DerivedReadinessColumnExpr,
  MealColumnExpr,
  MenstrualCycleColumnExpr,
  ProfileColumnExpr,
  SleepColumnExpr,
  SleepScoreValueMacroExpr,
  UnrecognizedValueMacroExpr,
  WorkoutColumnExpr,
} from './query-table-columns.js';
import {
  DiscreteTimeseriesExpr,
  IntervalTimeseriesExpr,
  InsulinInjectionTimeseriesExpr,
  BloodPressureTimeseriesExpr,
  TemperatureTimeseriesExpr,
  WorkoutDurationTimeseriesExpr,
  NoteTimeseriesExpr,
  IndexColumnExpr,
  SOURCE_FIELDS,
} from './query-timeseries.js';
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
