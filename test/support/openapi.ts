/**
 * Validates answers against the real service's published OpenAPI schemas, read from
 * `../shared/reference/openapi/` (never copied into the repo). When that folder is absent the
 * validator is null and callers skip those checks; the run says so once (test/support/reference.ts),
 * and with HEALTH_SANDBOX_REQUIRE_REFERENCE=1 (CI) the absence is an error instead.
 */
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { documentSchemas } from './ajv-formats.js';
import { OPENAPI_DIR, referenceFile } from './reference.js';

const FILES = { data: 'data-api.openapi.json', management: 'management-api.openapi.json' } as const;

interface OasValidator {
  /** Errors of `value` against `#/components/schemas/<name>` (empty when valid). */
  errors(schemaName: string, value: unknown): string[];
  /** Asserts that `value` is valid against the named schema. */
  expectValid(schemaName: string, value: unknown): void;
  /** The raw document (paths, parameters) for fact checks. */
  doc: Record<string, any>;
}

const cache = new Map<string, OasValidator | null>();

export function oasValidator(which: keyof typeof FILES): OasValidator | null {
  if (cache.has(which)) return cache.get(which) ?? null;
  const file = resolve(OPENAPI_DIR, FILES[which]);
  if (!referenceFile(file)) {
    cache.set(which, null);
    return null;
  }
  // Compiled once per worker, shared with the conformance report's (test/support/ajv-formats.ts).
  const schemas = documentSchemas(file);
  const validatorFor = (name: string) => {
    if (!schemas.doc.components?.schemas?.[name]) throw new Error(`No schema ${name} in ${FILES[which]}`);
    return schemas.lenient(`/components/schemas/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`);
  };
  const validator: OasValidator = {
    doc: schemas.doc,
    errors(schemaName, value) {
      const v = validatorFor(schemaName);
      if (v(value)) return [];
      return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    },
    expectValid(schemaName, value) {
      expect(validator.errors(schemaName, value), `${schemaName} schema errors`).toEqual([]);
    },
  };
  cache.set(which, validator);
  return validator;
}
