/**
 * Wire types against live answers, driven by the route table: every route declares the schema of
 * each answer it gives (`responses` on its entry, plus the engine's errors: `routeResponses`), and
 * every answer the route-table requests produce (a valid and an invalid request per route, the
 * same requests as adapter parity) must match the declared schema of its status. A route without
 * a 2xx schema fails; a status a route answers without declaring it fails; an answer carrying a
 * field its schema does not declare fails (a strict copy of the schema, built in the test).
 *
 * The requests go through the msw adapter's request handling called in process (`fetch`): the
 * parity test sends these very requests through express, msw, node:http and `fetch` and proves
 * the answers byte-identical (status, content type, body), so what holds here holds on every
 * adapter. WIRE_ADAPTERS=all runs them on express and msw too.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { ROUTES } from '../../src/routes.js';
import { missingSchemas, routeResponses } from '../../src/wire/engine.js';
import type { ResponseSpec } from '../../src/engine/route.js';
import { ErrorBody } from '../../src/wire/schemas.js';
import { createClient, type AnyAdapter } from '../support/client.js';
import { runRouteCases } from '../support/route-cases.js';
import { fixedWall, refusedDelivery } from '../support/route-requests.js';
import { strictSchema } from '../support/strict-schema.js';

it('every route declares a schema for each 2xx JSON answer', () => {
  const missing = ROUTES.flatMap((r) => missingSchemas(r).map((why) => `${r.id}: ${why}`));
  expect(missing).toEqual([]);
});

/**
 * A compressed body is refused (415) before routing, on every route (engine/limits.ts); the
 * route-table run sends one to the routes that take no input and no credentials (nothing else
 * about them can be wrong). `routeResponses` declares that 415 only for control routes with a
 * body, so its answer is checked here against the engine's error body.
 */
const ENCODING_REFUSED: ResponseSpec = { description: 'Unsupported Content-Encoding', schema: ErrorBody };

const WIRE_ADAPTERS: readonly AnyAdapter[] = process.env['WIRE_ADAPTERS'] === 'all' ? ['express', 'msw', 'fetch'] : ['fetch'];

for (const adapter of WIRE_ADAPTERS) {
  describe(`${adapter}: live answers match their declared schemas`, () => {
    it('valid and invalid request to every route', async () => {
      const c = createClient(adapter, {
        seed: 8,
        users: 3,
        usersElsewhere: 1,
        feed: 'off',
        wallClock: fixedWall,
        webhookTransport: refusedDelivery,
        fileSink: { append: async () => undefined },
      });
      const problems: string[] = [];
      const undeclared = new Map<string, string>();
      let checked = 0;
      await runRouteCases(c, ({ route, kind, breaks, res }) => {
        const where = `${route.id} (${kind}) ${res.status}`;
        const spec =
          routeResponses(route)[String(res.status)] ?? (breaks === 'encoding' && res.status === 415 ? ENCODING_REFUSED : undefined);
        if (!spec) return void problems.push(`${where}: status not declared`);
        const type = res.headers['content-type'] ?? '';
        if (spec.contentType) {
          if (spec.contentType !== '*/*' && !type.startsWith(spec.contentType))
            problems.push(`${where}: content type ${type}, declared ${spec.contentType}`);
          return;
        }
        if (!spec.schema) {
          if (res.bytes.length > 0 && res.status !== 204 && !(res.status >= 300 && res.status < 400))
            problems.push(`${where}: a body, but no schema declared`);
          return;
        }
        if (spec.alternatives?.some((t) => type.startsWith(t))) return;
        if (!type.startsWith('application/json')) return void problems.push(`${where}: ${type}, declared JSON`);
        const body: unknown = JSON.parse(res.text);
        const parsed = spec.schema.safeParse(body);
        checked++;
        if (!parsed.success)
          return void problems.push(
            `${where}: ${parsed.error.issues
              .slice(0, 3)
              .map((i) => `${i.path.join('.')}: ${i.message}`)
              .join('; ')}`,
          );
        const strict = strictSchema(spec.schema).safeParse(body);
        if (!strict.success) undeclared.set(`${route.id} ${res.status}`, strict.error.issues.slice(0, 3).map(issueText).join('; '));
      });
      expect(problems).toEqual([]);
      // Strict answers (checked here, not on the request path: a deep `z.strictObject` copy of each
      // schema, test/support/strict-schema.ts): an answer carrying a field its schema does not
      // declare fails. Declare the field where the real OpenAPI has it, else drop it from the view.
      expect([...undeclared].map(([k, v]) => `${k}: ${v}`)).toEqual([]);
      expect(checked).toBeGreaterThan(ROUTES.length);
    }, 120_000);
  });
}

/** An issue of the strict parse: where, and the undeclared keys (or the union's first branch's). */
function issueText(i: z.core.$ZodIssue): string {
  if (i.code === 'unrecognized_keys') return `${i.path.join('.')}: ${i.keys.join(',')}`;
  if (i.code === 'invalid_union') return `${i.path.join('.')}: ${(i.errors[0] ?? []).map(issueText).join('; ')}`;
  return `${i.path.join('.')}: ${i.message}`;
}
