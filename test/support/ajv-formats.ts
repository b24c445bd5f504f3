/**
 * The ajv validators of the real service's OpenAPI documents, for the tests and the conformance
 * report: the string formats the documents use (ajv-formats' standard ones, and `uuid4`, FastAPI's
 * name for pydantic's UUID4, which ajv does not know: without it, every `uuid4` field went
 * unchecked and ajv logged a warning per field), and one validator set per document per process
 * (module-level: vitest runs the files of a worker without isolation, so every file of a worker
 * shares it). Each document is added to its ajv once and every schema is compiled from its place
 * in the document (`getSchema('<id>#<pointer>')`) with `inlineRefs: false`: a shared component is
 * compiled once and called from every schema that refers to it, instead of compiled again, inlined,
 * into each (most of the conformance report's time went there).
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

type AddFormats = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: AddFormats }).default ?? addFormatsModule) as unknown as AddFormats;

/** A version-4 UUID (variant 1), any case. */
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

export function addDocumentFormats(ajv: Ajv2020): Ajv2020 {
  addFormats(ajv);
  return ajv.addFormat('uuid4', UUID4);
}

type Json = Record<string, any>;

/** Makes every object schema that lists its properties refuse undeclared ones (strict reading). */
function strictCopy(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(strictCopy);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json))
    out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Json).map(([p, s]) => [p, strictCopy(s)])) : strictCopy(v);
  if (
    out['properties'] &&
    out['additionalProperties'] === undefined &&
    out['unevaluatedProperties'] === undefined &&
    !out['allOf'] &&
    !out['anyOf'] &&
    !out['oneOf']
  ) {
    out['unevaluatedProperties'] = false;
  }
  return out;
}

export interface DocumentSchemas {
  /** The parsed document (shared: read it, never change it). */
  doc: Json;
  /** The validator of the schema at a JSON pointer of the document (`/components/schemas/User`). */
  lenient(pointer: string): ValidateFunction;
  /** The same schema read strictly: objects that list their properties refuse undeclared ones. */
  strict(pointer: string): ValidateFunction;
}

/** Validators of one document's schemas, each compiled on first use. */
function validators(doc: Json, id: string): (pointer: string) => ValidateFunction {
  // unicodeRegExp: false: a pattern of the data document (`\:`, `\/`, `\=` escapes) is no valid `u` regexp.
  // No code optimisation pass: most schemas validate a handful of answers, compiling is the cost.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: true,
    validateFormats: true,
    unicodeRegExp: false,
    inlineRefs: false,
    code: { optimize: false },
  });
  addDocumentFormats(ajv);
  ajv.addSchema({ $id: id, components: doc['components'], paths: doc['paths'] }, id);
  const cache = new Map<string, ValidateFunction>();
  return (pointer) => {
    let v = cache.get(pointer);
    if (!v) {
      v = ajv.getSchema(`${id}#${pointer}`);
      if (!v) throw new Error(`no schema at ${pointer} in ${id}`);
      cache.set(pointer, v);
    }
    return v;
  };
}

const loaded = new Map<string, DocumentSchemas>();

/** The validators of the document in `file` (an absolute path), made once per process. */
export function documentSchemas(file: string): DocumentSchemas {
  const known = loaded.get(file);
  if (known) return known;
  const doc = JSON.parse(readFileSync(file, 'utf8')) as Json;
  const id = `https://health-sandbox.test/${encodeURIComponent(file)}`;
  let strict: ((pointer: string) => ValidateFunction) | undefined;
  const schemas: DocumentSchemas = {
    doc,
    lenient: validators(doc, `${id}.json`),
    strict: (pointer) => {
      strict ??= validators({ components: strictCopy(doc['components']), paths: doc['paths'] }, `${id}-strict.json`);
      return strict(pointer);
    },
  };
  loaded.set(file, schemas);
  return schemas;
}
