/**
 * Grading the integration (issue 46) on the control plane:
 *
 * - `GET /_sandbox/report` (`?format=md`): what the client's code exercised since the last reset
 *   (src/state/sandbox/report.ts);
 * - `POST /_sandbox/receivers/certify` `{url, secret}`: the receiver certification
 *   (src/state/webhooks/certify.ts), sent through the world's webhook transport with its attempt
 *   timeout, to the URL given only, under the webhook destination rules. The signature
 *   timestamps come from the wall clock (read here, at the edge).
 */
import { z } from 'zod';
import { binary } from '../../engine/http-types.js';
import { lazySchema } from '../../engine/lazy-schema.js';
import { defineRoute, reply } from '../../engine/route.js';
import { domainErrorOf } from '../../state/domain-error.js';
import { integrationReport, reportMarkdown } from '../../state/sandbox/report.js';
import { CertifyRefused, certifyReceiver } from '../../state/webhooks/certify.js';
import { destinationProblem, resolvedProblem } from '../../state/webhooks/destinations.js';
import { webhookOptionsOf } from '../../state/webhooks/options.js';
import { normaliseSecret } from '../../state/webhooks/signing.js';
import { CertifyResultView, IntegrationReport } from '../../wire/certify-report.js';
import { res } from '../../wire/schemas.js';

const err = domainErrorOf('sandbox');
const encoder = new TextEncoder();

export const reportRoutes = [
  defineRoute({
    id: 'sandbox.report',
    method: 'GET',
    path: '/_sandbox/report',
    auth: 'control',
    summary:
      'What the client exercised since the last reset: routes called (counts, statuses, faults) and never called, error statuses, webhook event types per endpoint, lab statuses reached, fault kinds, providers. ?format=md for markdown.',
    request: { query: lazySchema(() => z.object({ format: z.enum(['json', 'md']).default('json') })) },
    responses: { 200: res(IntegrationReport, 'The report (JSON), or markdown with format=md') },
    handle(ctx, { query }) {
      const report = integrationReport(ctx.world, ctx.routes);
      if (query.format === 'md') return binary(encoder.encode(reportMarkdown(report)), 'text/markdown; charset=utf-8');
      return reply(200, report);
    },
  }),

  defineRoute({
    id: 'sandbox.receivers.certify',
    method: 'POST',
    path: '/_sandbox/receivers/certify',
    auth: 'control',
    summary:
      'Certifies a webhook receiver: a fixed battery of signed, badly signed, stale, rotated, redelivered, unknown and out-of-order deliveries to {url}, signed with {secret}; each check with what was sent and received.',
    request: {
      body: lazySchema(() =>
        z
          .object({ url: z.string().min(1).max(2000), secret: z.string().min(1).max(200).describe('The endpoint secret, whsec_...') })
          .strict(),
      ),
    },
    responses: {
      200: res(CertifyResultView, '{url, passed, failed, checks, timing, note}'),
      422: 'A bad secret, or a URL the webhook destination rules refuse',
    },
    async handle(ctx, { body }) {
      const secret = normaliseSecret(body.secret);
      if ('error' in secret) throw err('invalid', secret.error, { loc: ['body', 'secret'], input: '(hidden)' });
      const options = webhookOptionsOf(ctx.world);
      const wall = ctx.world.clock.rawWall;
      try {
        const result = await certifyReceiver(
          {
            transport: options.transport,
            wall,
            timer: wall,
            timeoutMs: options.attemptTimeoutMs,
            destinationProblem: (url) => destinationProblem(ctx.world, url),
            resolvedProblem: (url, address) => resolvedProblem(ctx.world, url, address),
          },
          body.url,
          secret.key,
        );
        return reply(200, result);
      } catch (error) {
        if (error instanceof CertifyRefused) throw err('invalid', error.message, { loc: ['body', 'url'], input: body.url });
        throw error;
      }
    },
  }),
];
