/** Contract test: the official SDK parses the lab report, insurance and ICD answers of the sandbox (issue 13). */
import { type VitalClient, VitalError } from '@tryvital/vital-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../support/server.js';
import { startSdkServer } from '../support/sdk-server.js';

let server: RunningServer;
let client: VitalClient;

beforeAll(async () => {
  ({ server, client } = await startSdkServer({ seed: 171, users: 3, usersElsewhere: 0 }));
});

afterAll(async () => {
  await server.close();
});

const PDF = new TextEncoder().encode('%PDF-1.7\n1 0 obj << /Type /Page >> endobj\n%%EOF\n');

describe('official SDK @tryvital/vital-node: labReport, insurance, labTests.validateIcdCodes', () => {
  it('uploads a lab report with labReport.parserCreateJob and reads it with parserGetJob', async () => {
    const users = await client.user.getAll();
    const userId = users.users[0]?.userId ?? '';
    const job = await client.labReport.parserCreateJob(
      { data: Buffer.from(PDF), filename: 'report.pdf', contentType: 'application/pdf' },
      { userId, needsHumanReview: false },
    );
    expect(job.status).toBe('started');
    expect(job.needsHumanReview).toBe(false);
    await server.sandbox.advance(60);
    const done = await client.labReport.parserGetJob(job.id);
    expect(done.status).toBe('completed');
    expect(done.data?.results.length).toBeGreaterThanOrEqual(4);
    expect(done.data?.results[0]?.loincMatches?.[0]?.loincCode).toMatch(/^\d+-\d$/);
    expect(done.data?.metadata.specimenNumber).toMatch(/^[0-9A-F]{10}$/);
    const wrong = await client.labReport
      .parserCreateJob({ data: Buffer.from('hello'), filename: 'notes.txt' }, { userId })
      .catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(VitalError);
    expect((wrong as VitalError).statusCode).toBe(400);
  });

  it('parses the deprecated POST payor search, diagnosis search and ICD validation', async () => {
    const payors = await client.insurance.searchPayorInfo({ insuranceName: 'aetna' });
    expect(payors[0]?.code).toBe('AETNA');
    const diagnoses = await client.insurance.searchDiagnosis({ diagnosisQuery: 'hyperlipidemia' });
    expect(diagnoses.map((d) => d.diagnosisCode)).toContain('E78.5');
    expect(diagnoses[0]?.isSecondary).toBe(false);
    const valid = await client.labTests.validateIcdCodes({ codes: ['E11.9', 'E10.9', 'Q99.99'] });
    expect(valid.valid).toBe(false);
    expect(valid.errors).toEqual(['Unknown ICD-10 code: Q99.99']);
    expect(valid.violations[0]).toMatchObject({ code: 'E11.9', conflictsWith: 'E10.9', type: 'excludes1' });
  });
});
