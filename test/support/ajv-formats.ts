/**
 * The string formats the real service's OpenAPI documents use, for the ajv validators of the tests
 * and the conformance report: ajv-formats' standard ones, and `uuid4` (FastAPI's name for
 * pydantic's UUID4, which ajv does not know: without it, every `uuid4` field went unchecked and
 * ajv logged a warning per field).
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/** A version-4 UUID (variant 1), any case. */
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function addDocumentFormats(ajv: Ajv2020): Ajv2020 {
  addFormats(ajv);
  return ajv.addFormat('uuid4', UUID4);
}
