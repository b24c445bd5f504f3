/**
 * Lab report parsing (data OpenAPI tag `lab_report`): `POST /lab_report/v1/parser/job` takes a
 * multipart upload (`file`, one or more; `user_id`; `needs_human_review`), `GET .../{job_id}`
 * answers the job as it moves on the clock (`state/labs/lab-report.ts`; docs/simulated/labs.md).
 */
import { z } from 'zod';
import { formField, formFiles } from '../../engine/multipart.js';
import { defineRoute, reply } from '../../engine/route.js';
import { bool, uuid } from '../../engine/schemas.js';
import { createParsingJob, findParsingJob, parsingJobView } from '../../state/labs/lab-report.js';
import { ParsingJob, res } from '../../wire/schemas.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const labReportRoutes = [
  defineRoute({
    id: 'lab_report.parser_job.create',
    method: 'POST',
    path: '/lab_report/v1/parser/job',
    auth: 'team',
    summary: 'Upload a lab report (multipart: file = PDF, JPEG or PNG up to 10 MB; user_id; needs_human_review) to parse on the clock.',
    request: {
      bodyKind: 'form',
      body: lazySchema(() => z.object({ file: formFiles(), user_id: formField(uuid()), needs_human_review: formField(bool()).optional() })),
    },
    responses: {
      200: res(ParsingJob, 'ParsingJob'),
      400: 'Empty, unsupported or too large file; malformed multipart; parsing cap',
      404: 'Unknown user',
      422: 'Validation error (not a form: every field missing)',
    },
    handle: (ctx, { body }) =>
      reply(
        200,
        parsingJobView(
          createParsingJob(ctx, {
            files: body.file,
            user_id: body.user_id,
            needs_human_review: body.needs_human_review ?? false,
          }),
        ),
      ),
  }),

  defineRoute({
    id: 'lab_report.parser_job.get',
    method: 'GET',
    path: '/lab_report/v1/parser/job/:job_id',
    auth: 'team',
    summary: 'A parsing job: status, failure reason, and the parsed results once completed.',
    request: { params: lazySchema(() => z.object({ job_id: uuid() })) },
    responses: { 200: res(ParsingJob, 'ParsingJob'), 404: 'Unknown job' },
    handle: (ctx, { params }) => reply(200, parsingJobView(findParsingJob(ctx, params.job_id))),
  }),
];
