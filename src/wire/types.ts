/**
 * The wire types integrators import to type their fixtures and handlers: each is inferred from
 * the zod schema the routes declare (`src/wire/`), so a type and the answers it describes cannot
 * drift apart (the wire test checks every live answer against the schema). Type-only: importing
 * them pulls in no code.
 */
import type { z } from 'zod';
import type * as W from './schemas.js';

type Of<T extends z.ZodType> = z.output<T>;

export type ApiErrorBody = Of<typeof W.ErrorBody>;
export type ValidationErrorBody = Of<typeof W.ValidationErrorBody>;
export type Source = Of<typeof W.Source>;

export type User = Of<typeof W.User>;
export type UserList = Of<typeof W.UserList>;
export type ConnectedSource = Of<typeof W.ConnectedSource>;
export type UserInfo = Of<typeof W.UserInfo>;
export type Insurance = Of<typeof W.Insurance>;
export type Device = Of<typeof W.Device>;

export type Provider = Of<typeof W.Provider>;
export type Connection = Of<typeof W.Connection>;
export type ActivitySummary = Of<typeof W.ActivitySummary>;
export type SleepSummary = Of<typeof W.SleepSummary>;
export type BodySummary = Of<typeof W.BodySummary>;
export type WorkoutSummary = Of<typeof W.WorkoutSummary>;
export type MealSummary = Of<typeof W.MealSummary>;
export type MenstrualCycle = Of<typeof W.MenstrualCycle>;
export type SleepCycle = Of<typeof W.SleepCycle>;
export type ElectrocardiogramSummary = Of<typeof W.ElectrocardiogramSummary>;
export type Profile = Of<typeof W.Profile>;
export type TimeseriesSample = Of<typeof W.TimeseriesSample>;
export type GroupedTimeseries = Of<typeof W.GroupedTimeseries>;

export type Lab = Of<typeof W.Lab>;
export type Marker = Of<typeof W.Marker>;
export type LabTest = Of<typeof W.LabTest>;
export type Order = Of<typeof W.Order>;
export type OrderEvent = Of<typeof W.OrderEvent>;
export type OrderAnswer = Of<typeof W.OrderAnswer>;
export type OrderTransaction = Of<typeof W.OrderTransaction>;
export type OrderResult = Of<typeof W.OrderResult>;
export type ResultMarker = Of<typeof W.ResultMarker>;
export type Appointment = Of<typeof W.Appointment>;
export type LabResultsRaw = Of<typeof W.LabResultsRaw>;
export type CompendiumSearch = Of<typeof W.CompendiumSearch>;
export type UnmatchedResult = Of<typeof W.UnmatchedResult>;
export type ParsingJob = Of<typeof W.ParsingJob>;
export type AggregationResponse = Of<typeof W.AggregationResponse>;
export type AggregationResult = Of<typeof W.AggregationResult>;
export type BulkOp = Of<typeof W.BulkOp>;

export type WebhookEndpoint = Of<typeof W.WebhookEndpoint>;
export type Pipeline = Of<typeof W.Pipeline>;
export type ManagementTeam = Of<typeof W.ManagementTeam>;
export type ManagementKey = Of<typeof W.ManagementKey>;
export type Org = Of<typeof W.Org>;
export type LinkToken = Of<typeof W.LinkToken>;

export type { EventData, EventType, KnownEventType, WebhookEvent } from './events.js';
