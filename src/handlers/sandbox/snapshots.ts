/**
 * Worlds that last, over the control plane: `POST /_sandbox/snapshots {"name"}` saves the whole
 * world in memory, `POST /_sandbox/snapshots/{name}/restore` rewinds to it (clock, pending jobs
 * and deliveries included), `GET` lists them, `DELETE` drops one; `GET /_sandbox/world` answers
 * the world as one document (keys and secrets included) and `PUT /_sandbox/world` replaces the
 * world with one (docs/simulated/engine.md "Worlds that last").
 *
 * LIMITATIONS
 * - Snapshots live in memory only and are gone with the process (save one with `GET /_sandbox/world`).
 * - A world's document is its state when it was saved plus the inputs since (none when nothing was
 *   in flight); a world that stays busy far past WORLD_LOG_LIMIT inputs (src/engine/persist.ts)
 *   without one quiet moment answers 409 until it has one.
 */
import { z } from 'zod';
import { ApiError, apiError } from '../../engine/errors.js';
import { noContent } from '../../engine/http-types.js';
import { WorldDocumentError } from '../../engine/persist-document.js';
import type { WorldDocument as WorldDocumentOf } from '../../engine/persist.js';
import { defineRoute, reply } from '../../engine/route.js';
import { SnapshotInfo, SnapshotList, WorldDocument, WorldRestored, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const snapshotName = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/, 'Letters, digits, ".", "_" and "-" only'),
);

/**
 * The world document as the wire declares it: its build and log entries as plain JSON objects
 * (the same keys, in the same order).
 */
function worldView(doc: WorldDocumentOf): z.input<typeof WorldDocument> {
  const view = {
    format: doc.format,
    version: doc.version,
    build: { ...doc.build },
    ...(doc.state === undefined ? {} : { state: doc.state }),
    log: doc.log.map((entry) => ({ ...entry })),
  };
  return doc.stores === undefined ? view : { ...view, stores: { ...doc.stores } };
}

const restored = (world: { seed: number; now: string }) => reply(200, { status: 'ok', seed: world.seed, now: world.now });

export const snapshotRoutes = [
  defineRoute({
    id: 'sandbox.snapshots.list',
    method: 'GET',
    path: '/_sandbox/snapshots',
    auth: 'control',
    summary: 'The worlds saved in memory, oldest first.',
    responses: { 200: res(SnapshotList, '{snapshots: [{name, now, seed, inputs}]}') },
    handle: (ctx) => reply(200, { snapshots: ctx.worlds.list() }),
  }),
  defineRoute({
    id: 'sandbox.snapshots.create',
    method: 'POST',
    path: '/_sandbox/snapshots',
    auth: 'control',
    summary: 'Saves the whole world in memory under a name (replacing one of that name).',
    request: { body: lazySchema(() => z.object({ name: snapshotName })) },
    responses: {
      201: res(SnapshotInfo, '{name, now, seed, inputs}'),
      422: 'No valid name',
      409: 'Too many snapshots kept, or the world accepted more inputs than its log keeps in memory',
    },
    handle(ctx, { body }) {
      try {
        return reply(201, ctx.worlds.snapshot(body.name));
      } catch (error) {
        if (error instanceof RangeError) throw apiError(409, error.message);
        throw error;
      }
    },
  }),
  defineRoute({
    id: 'sandbox.snapshots.restore',
    method: 'POST',
    path: '/_sandbox/snapshots/:name/restore',
    auth: 'control',
    summary: 'Rewinds the world to a snapshot: its clock, pending jobs, deliveries and every answer.',
    request: { params: lazySchema(() => z.object({ name: z.string() })) },
    responses: { 200: res(WorldRestored, '{status, seed, now}'), 404: 'No snapshot of that name' },
    async handle(ctx, { params }) {
      try {
        return restored(await ctx.worlds.restore(params.name));
      } catch (error) {
        if (error instanceof RangeError) throw apiError(404, error.message);
        throw error;
      }
    },
  }),
  defineRoute({
    id: 'sandbox.snapshots.delete',
    method: 'DELETE',
    path: '/_sandbox/snapshots/:name',
    auth: 'control',
    summary: 'Drops a snapshot.',
    request: { params: lazySchema(() => z.object({ name: z.string() })) },
    responses: { 204: 'Dropped', 404: 'No snapshot of that name' },
    handle(ctx, { params }) {
      if (!ctx.worlds.remove(params.name)) throw apiError(404, `No snapshot named ${JSON.stringify(params.name)}`);
      return noContent();
    },
  }),
  defineRoute({
    id: 'sandbox.world.get',
    method: 'GET',
    path: '/_sandbox/world',
    auth: 'control',
    summary: 'The whole world as one JSON document (keys and secrets included): save it, check it in, PUT it back or start from it.',
    responses: { 200: res(WorldDocument, 'The world document'), 409: 'The world accepted more inputs than its log keeps in memory' },
    handle: (ctx) => reply(200, worldView(ctx.worlds.export())),
  }),
  defineRoute({
    id: 'sandbox.world.put',
    method: 'PUT',
    path: '/_sandbox/world',
    auth: 'control',
    summary: 'Replaces the world with a saved one (its seed and keys win); a bad document changes nothing (422 saying what is wrong).',
    request: { body: lazySchema(() => z.unknown()) },
    responses: { 200: res(WorldRestored, '{status, seed, now}'), 422: 'Not a world document this build reads' },
    async handle(ctx, { body }) {
      try {
        return restored(await ctx.worlds.import(body));
      } catch (error) {
        if (error instanceof WorldDocumentError) {
          throw new ApiError(422, { detail: [{ loc: ['body'], msg: error.message, type: 'value_error' }] });
        }
        throw error;
      }
    },
  }),
];
