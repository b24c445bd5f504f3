/**
 * Writes the sandbox's OpenAPI documents (from the route table): `npm run openapi` prints the data
 * interface's; `npm run openapi -- <dir>` writes data.openapi.json, management.openapi.json and
 * control.openapi.json into <dir>.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROUTES } from '../src/routes.js';
import { buildOpenApiDocument, DOCUMENT_KINDS } from '../src/wire/openapi.js';

const BASE = 'http://127.0.0.1:4250';
const text = (kind: (typeof DOCUMENT_KINDS)[number]) =>
  `${JSON.stringify(buildOpenApiDocument(ROUTES, kind, kind === 'management' ? `${BASE}/management` : BASE), null, 2)}\n`;
const out = process.argv[2];
if (out) {
  mkdirSync(out, { recursive: true });
  for (const kind of DOCUMENT_KINDS) writeFileSync(resolve(out, `${kind}.openapi.json`), text(kind));
} else process.stdout.write(text('data'));
