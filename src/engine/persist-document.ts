/**
 * Checks a world document (export, snapshot, state file) before anything is built from it: the
 * format and version first (a newer or older version is named), then its shape. A document that
 * fails is refused whole, with one line saying what is wrong.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import { DOCUMENT_LIMITS as L, WORLD_FORMAT, WORLD_VERSIONS, type WorldDocument } from './persist.js';

/** A time the sandbox can show (an ISO string of a four-digit year), ms. */
const time = () =>
  z
    .number()
    .finite()
    .min(L.startAtMin, `must be a time from 1970 on (${L.startAtMin} ms)`)
    .max(L.startAtMax, `must be a time before year 10000 (${L.startAtMax} ms)`);

const strings = lazySchema(() => z.record(z.string(), z.string()));
const reads = lazySchema(() => z.array(z.number().finite()));
/** The wall-clock reads an entry may carry (built with the entries, on the first document read). */
let wallFields: { w: z.ZodOptional<typeof reads>; wk: z.ZodOptional<z.ZodRecord<z.ZodString, typeof reads>> } | undefined;
const walls = () => (wallFields ??= { w: reads.optional(), wk: z.record(z.string(), reads).optional() });
const entry = lazySchema(() =>
  z.discriminatedUnion('k', [
    z.object({
      k: z.literal('req'),
      at: time(),
      m: z.string(),
      s: z.enum(['data', 'management']),
      p: z.string(),
      q: z.record(z.string(), z.array(z.string())),
      h: strings,
      b: z.string(),
      d: z.literal(true).optional(),
      ...walls(),
    }),
    z.object({
      k: z.literal('adv'),
      ms: z
        .number()
        .finite()
        .nonnegative()
        .max(L.advanceMs, `one advance moves the clock at most ${L.advanceMs} ms (366 days), as POST /_sandbox/clock/advance`),
      ...walls(),
    }),
    z.object({ k: z.literal('wall'), ...walls() }),
    z.object({
      k: z.literal('out'),
      key: z.string(),
      r: z.object({ status: z.number().int(), headers: strings, body: z.string() }).optional(),
      e: z.object({ message: z.string(), code: z.string().optional(), cause: z.string().optional() }).optional(),
      t: z.literal(true).optional(),
      ...walls(),
    }),
  ]),
);

const documentSchema = lazySchema(() =>
  z.object({
    format: z.literal(WORLD_FORMAT),
    version: z.number().int(),
    build: z.object({
      seed: z.number().int().min(L.seedMin).max(L.seedMax, `must be between ${L.seedMin} and ${L.seedMax}, as --seed`),
      scenario: z.unknown(),
      users: z.number().int().nonnegative().max(L.users, `at most ${L.users} users, as --users`),
      usersElsewhere: z.number().int().nonnegative().max(L.usersElsewhere, `at most ${L.usersElsewhere}`),
      limits: z.boolean(),
      feed: z.enum(['auto', 'on', 'off']),
      world: z.enum(['default', 'empty']),
      startAt: time(),
      /** Absent in documents written before lab progression was a build option: `clock`. */
      labsProgression: z.enum(['clock', 'manual']).optional(),
    }),
    state: z.object({ form: z.number().int(), state: z.unknown() }).optional(),
    log: z.array(entry),
    stores: z.record(z.string(), z.unknown()).optional(),
  }),
);

export class WorldDocumentError extends Error {}

/** What a refusal of a version says this build reads. */
export const VERSIONS_READ = `this build reads versions ${WORLD_VERSIONS.slice(0, -1).join(', ')} and ${WORLD_VERSIONS.at(-1)} only`;

/**
 * The document, or a WorldDocumentError saying in one line what is wrong. `entries`: the most log
 * entries taken (a world document: what a live world keeps in memory; a state file passes
 * Infinity, its size bounds it).
 */
export function parseWorldDocument(value: unknown, entries: number = L.entries): WorldDocument {
  const head = value as { format?: unknown; version?: unknown; log?: unknown } | null;
  if (typeof head !== 'object' || head === null || head.format !== WORLD_FORMAT)
    throw new WorldDocumentError(`not a health-sandbox world (expected "format": "${WORLD_FORMAT}")`);
  if (typeof head.version !== 'number' || !WORLD_VERSIONS.includes(head.version))
    throw new WorldDocumentError(`written in format version ${String(head.version)}; ${VERSIONS_READ}`);
  if (Array.isArray(head.log) && head.log.length > entries)
    throw new WorldDocumentError(
      `invalid world document at log: ${head.log.length} entries, more than the ${entries} a world keeps in memory`,
    );
  const parsed = documentSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new WorldDocumentError(`invalid world document at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'bad shape'}`);
  }
  return parsed.data as WorldDocument;
}
