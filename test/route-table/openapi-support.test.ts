import { describe, expect, it } from 'vitest';
import { oasValidator } from '../support/openapi.js';

const data = oasValidator('data');

describe.skipIf(!data)('OpenAPI oracle', () => {
  it('accepts a valid user and rejects a broken one', () => {
    const user = {
      user_id: '8c9a62e2-7e75-453e-8fb5-e83e03f51a53',
      team_id: '4ffb1a94-775f-49d9-9a70-b93cb3ad8946',
      client_user_id: 'abc',
      created_on: '2026-01-05T09:00:00.000Z',
      connected_sources: [],
      fallback_time_zone: null,
    };
    expect(data?.errors('ClientFacingUser', user)).toEqual([]);
    expect(data?.errors('ClientFacingUser', { ...user, created_on: 5 }).length).toBeGreaterThan(0);
  });
});

describe('document formats', () => {
  it("checks `uuid4` fields as version-4 UUIDs (the documents name pydantic's UUID4 so)", async () => {
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const { addDocumentFormats } = await import('../support/ajv-formats.js');
    const check = addDocumentFormats(new Ajv2020({ strict: false })).compile({ type: 'string', format: 'uuid4' });
    expect(check('8c9a62e2-7e75-453e-8fb5-e83e03f51a53')).toBe(true);
    expect(check('8c9a62e2-7e75-153e-8fb5-e83e03f51a53')).toBe(false);
    expect(check('8c9a62e2-7e75-453e-cfb5-e83e03f51a53')).toBe(false);
    expect(check('not-a-uuid')).toBe(false);
  });
});
