/**
 * Lab-derived timeseries (api-facts A.3, F.2): `/v2/timeseries/:user_id/{ige,igg,cholesterol}`,
 * the deprecated `/cholesterol/{total,ldl,hdl,triglycerides}` and the `/grouped` variants of the
 * three. Samples come from the user's completed lab results (state/wearables/lab-timeseries.ts),
 * grouped by the performing lab; `provider` takes a provider or lab slug.
 *
 * Grouped answers hold every sample of the window in one page (a user has a handful of lab
 * results): `next_cursor` is null; a cursor from another grouped answer moves the window's start.
 */
import { z } from 'zod';
import { defineRoute, reply, type Route } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';
import { decodeCursor } from '../../state/wearables/cursor.js';
import { CHOLESTEROL_KINDS, labSamples, labSource, type CholesterolKind, type LabResource } from '../../state/wearables/lab-timeseries.js';
import type { RenderedSample, SourceObject } from '../../state/wearables/timeseries.js';
import { checkProvider, groupedQuery, queryWindow, rangeQuery, requireUser } from '../../state/wearables/wearable-data.js';
import { GroupedTimeseries, TimeseriesSample, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

const params = lazySchema(() => z.object({ user_id: uuid() }));
const RESPONSES = { 404: 'Unknown user', 422: 'Bad dates, end before start, unknown provider' };

const UNITS: Record<LabResource, string> = { cholesterol: 'mmol/L', ige: 'FSU', igg: 'FSU' };

function rawRoute(resource: LabResource, path: string, kinds: readonly CholesterolKind[]): Route {
  return defineRoute({
    id: `timeseries.${path.replace('/', '.')}`,
    method: 'GET',
    path: `/v2/timeseries/:user_id/${path}`,
    auth: 'team',
    summary: `${path} samples (${UNITS[resource]}) from the user's completed lab results, all labs, oldest first (deprecated in the reference).`,
    request: { params, query: rangeQuery },
    responses: {
      200: res(
        lazySchema(() => z.array(TimeseriesSample)),
        'Array of samples',
      ),
      ...RESPONSES,
    },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider, 'query', true);
      const user = requireUser(ctx, p.user_id);
      const [from, to] = queryWindow(query.start_date, query.end_date, ctx.now());
      return reply(
        200,
        labSamples(ctx, user, { resource, provider: query.provider, from, to, kinds }).map((s) => s.body),
      );
    },
  });
}

function groupedRoute(resource: LabResource): Route {
  return defineRoute({
    id: `timeseries.${resource}.grouped`,
    method: 'GET',
    path: `/v2/timeseries/:user_id/${resource}/grouped`,
    auth: 'team',
    summary: `${resource} samples (${UNITS[resource]}) from the user's completed lab results, grouped by lab.`,
    request: { params, query: groupedQuery },
    responses: {
      200: res(GroupedTimeseries, '{groups: {<lab>: [{source, data}]}, next, next_cursor}'),
      ...RESPONSES,
      422: 'Bad dates, cursor, end before start, unknown provider',
    },
    handle(ctx, { params: p, query }) {
      checkProvider(query.provider, 'query', true);
      const resume = decodeCursor('t', query.next_cursor, 'next_cursor') ?? decodeCursor('t', query.cursor, 'cursor');
      const user = requireUser(ctx, p.user_id);
      const [start, end] = queryWindow(query.start_date, query.end_date, ctx.now());
      const from = resume !== null ? Math.max(start, resume) : start;
      const groups: Record<string, Array<{ source: SourceObject; data: RenderedSample[] }>> = {};
      for (const s of labSamples(ctx, user, { resource, provider: query.provider, from, to: end })) {
        const group = (groups[s.lab] ??= [{ source: labSource(s.lab), data: [] }]);
        group[0]?.data.push(s.body);
      }
      return reply(200, { groups, next: null, next_cursor: null });
    },
  });
}

export const labTimeseriesRoutes: Route[] = [
  rawRoute('ige', 'ige', CHOLESTEROL_KINDS),
  groupedRoute('ige'),
  rawRoute('igg', 'igg', CHOLESTEROL_KINDS),
  groupedRoute('igg'),
  rawRoute('cholesterol', 'cholesterol', CHOLESTEROL_KINDS),
  ...CHOLESTEROL_KINDS.map((k) => rawRoute('cholesterol', `cholesterol/${k}`, [k])),
  groupedRoute('cholesterol'),
];
