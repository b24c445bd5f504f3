/** Writes the sandbox's OpenAPI document (from the route table): npm run openapi [-- out.json] */
import { writeFileSync } from 'node:fs';
import { buildOpenApiDocument } from '../src/engine/openapi.js';
import { ROUTES } from '../src/routes.js';

const text = `${JSON.stringify(buildOpenApiDocument(ROUTES), null, 2)}\n`;
const out = process.argv[2];
if (out) writeFileSync(out, text);
else process.stdout.write(text);
