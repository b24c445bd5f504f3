/**
 * Wire pieces shared by every area: error bodies, sources, paging envelopes. Schemas of what the
 * sandbox answers, declared on the route entries (`responses`) and checked by the tests against
 * live answers; never used on the request path. Objects are zod's default (non-strict) objects:
 * a declared field must be there with its type; the strict reading (no undeclared field) is the
 * conformance test's job, against the real OpenAPI documents.
 */
import { z } from 'zod';
import { lazySchema } from '../engine/lazy-schema.js';

/** An ISO 8601 timestamp as the service writes it. */
export const dateTime = lazySchema(() => z.string().describe('ISO 8601 date-time'));
/** A calendar date, YYYY-MM-DD. */
export const calendarDate = lazySchema(() =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('YYYY-MM-DD'),
);
export const uuidString = lazySchema(() => z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i));
/** Any JSON object (bodies the sandbox passes through: raw provider data, configurations). */
export const JsonObject = lazySchema(() => z.record(z.string(), z.unknown()));

/** One FastAPI/pydantic validation item. */
const ValidationItem = lazySchema(() =>
  z.object({
    type: z.string(),
    loc: z.array(z.union([z.string(), z.number()])),
    msg: z.string(),
    input: z.unknown().optional(),
    ctx: JsonObject.optional(),
  }),
);

/** `{"detail": [...]}`: a 422. */
export const ValidationErrorBody = lazySchema(() => z.object({ detail: z.array(ValidationItem) }));

/** `{"detail": {"error_type", "error_message", ...}}`: the coded 400s. */
const CodedError = lazySchema(() => z.object({ error_type: z.string(), error_message: z.string() }));

/** The house error body: `{"detail": text | validation items | coded error}`. */
export const ErrorBody = lazySchema(() =>
  z.object({
    detail: z.union([z.string(), z.array(ValidationItem), CodedError, JsonObject]),
  }),
);

export const Success = lazySchema(() => z.object({ success: z.boolean() }));

/** `{name, slug, logo}` of a provider. */
export const ProviderRef = lazySchema(() => z.object({ name: z.string(), slug: z.string(), logo: z.string().nullable() }));

/** The `source` of wearable data: provider, device type, app, device. */
export const Source = lazySchema(() =>
  ProviderRef.partial().extend({
    provider: z.string(),
    type: z.string().nullable(),
    app_id: z.string().nullable(),
    device_id: z.string().nullable(),
  }),
);

/** `{data: [...], next_cursor}` pages. */
export const cursorPage = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item), next_cursor: z.string().nullable() });
/** `{<key>: [...]}` lists. */
export const listOf = <K extends string, T extends z.ZodType>(key: K, item: T) =>
  z.object({ [key]: z.array(item) } as { [P in K]: z.ZodArray<T> });

/** Shorthand for a declared answer on a route entry. */
export const res = <Z extends z.ZodType>(schema: Z, description: string) => ({ description, schema });
