/**
 * Lab report parsing: multipart uploads, jobs on the clock, results from the bytes (issue 13). On
 * the in-process adapter and one over real HTTP (express): the route-table parity test proves every
 * adapter answers a valid and an invalid upload byte-identically, and test/engine/hardening.test.ts
 * the body bound (413) on all four.
 */
import { describe, expect, it } from 'vitest';
import { type AnyAdapter, createClient, type TestClient } from '../support/client.js';
import { oasValidator } from '../support/openapi.js';
import { SMALL, firstUserId } from '../support/lab-helpers.js';
import { LABS_ERRORS, LABS_TEXTS } from '../../src/state/labs/errors.js';
import { FORM_MESSAGES } from '../../src/engine/multipart.js';
import { UNKNOWN_ID } from '../support/route-params.js';
import { expectWire } from '../support/wire.js';

const oas = oasValidator('data');
const enc = new TextEncoder();
const BOUNDARY = 'sandbox-boundary-7MA4YWxk';
const TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

type Part = { name: string; filename?: string; type?: string; data: Uint8Array | string };

function form(parts: Part[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  for (const p of parts) {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n`;
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    chunks.push(enc.encode(`${head}\r\n`), typeof p.data === 'string' ? enc.encode(p.data) : p.data, enc.encode('\r\n'));
  }
  chunks.push(enc.encode(`--${BOUNDARY}--\r\n`));
  return new Uint8Array(Buffer.concat(chunks));
}

const PDF = enc.encode(
  '%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count 1 >> endobj\n3 0 obj << /Type /Page >> endobj\n%%EOF\n',
);
const OTHER_PDF = enc.encode('%PDF-1.4\n3 0 obj << /Type /Page >> endobj\n% another report\n%%EOF\n');
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);

const upload = (c: TestClient, parts: Part[], type = TYPE) =>
  c.post('/lab_report/v1/parser/job', form(parts), { headers: { 'content-type': type } });

const ADAPTERS: readonly AnyAdapter[] = ['fetch', 'express'];

for (const adapter of ADAPTERS) {
  describe(`lab report parser [${adapter}]`, () => {
    it('parses an uploaded PDF on the clock into results derived from its bytes', async () => {
      const c = createClient(adapter, { seed: 161, ...SMALL });
      const user = await firstUserId(c);
      const created = await upload(c, [
        { name: 'file', filename: 'report.pdf', type: 'application/pdf', data: PDF },
        { name: 'user_id', data: user },
      ]);
      expect(created.status, created.text).toBe(200);
      oas?.expectValid('ParsingJob', created.body);
      expectWire('lab_report.parser_job.create', created);
      expect(created.body).toMatchObject({
        status: 'started',
        failure_reason: null,
        data: null,
        needs_human_review: false,
        is_reviewed: false,
      });
      const id = created.body.id as string;
      expect(created.body.job_id).toBe(id); // the SDK requires job_id; the OpenAPI document does not declare it
      expect((await c.get(`/lab_report/v1/parser/job/${id}`)).body.status).toBe('started');
      await c.advance(30);
      const done = await c.get(`/lab_report/v1/parser/job/${id}`);
      oas?.expectValid('ParsingJob', done.body);
      expectWire('lab_report.parser_job.get', done);
      expect(done.body.status).toBe('completed');
      const { metadata, results } = done.body.data;
      expect(results.length).toBeGreaterThanOrEqual(4);
      expect(results.length).toBeLessThanOrEqual(12);
      expect(results[0].loinc_matches[0].loinc_code).toMatch(/^\d+-\d$/);
      expect(metadata.specimen_number).toMatch(/^[0-9A-F]{10}$/);

      // Same bytes, other world: same results; other bytes: other results.
      const d = createClient(adapter, { seed: 999, ...SMALL });
      const again = await upload(d, [
        { name: 'file', filename: 'copy.pdf', data: PDF },
        { name: 'user_id', data: await firstUserId(d) },
      ]);
      await d.advance(30);
      expect((await d.get(`/lab_report/v1/parser/job/${again.body.id}`)).body.data).toEqual(done.body.data);
      const other = await upload(c, [
        { name: 'file', filename: 'o.pdf', data: OTHER_PDF },
        { name: 'user_id', data: user },
      ]);
      await c.advance(30);
      expect((await c.get(`/lab_report/v1/parser/job/${other.body.id}`)).body.data.results).not.toEqual(results);

      const events = (await c.get('/_sandbox/events', { query: { event_type_prefix: 'lab_report.parsing_job.' } })).body.events;
      const mine = events.filter((e: any) => e.envelope.data.id === id);
      expect(mine.map((e: any) => [e.envelope.event_type, e.envelope.data.status])).toEqual([
        ['lab_report.parsing_job.created', 'started'],
        ['lab_report.parsing_job.updated', 'completed'],
      ]);
      expect(mine[0].envelope.user_id).toBe(user);
    });

    it('human review completes later, reviewed; tiny images and long PDFs fail', async () => {
      const c = createClient(adapter, { seed: 162, ...SMALL });
      const user = await firstUserId(c);
      const reviewed = await upload(c, [
        { name: 'file', filename: 'scan.png', type: 'image/png', data: PNG },
        { name: 'user_id', data: user },
        { name: 'needs_human_review', data: 'true' },
      ]);
      expect(reviewed.body.needs_human_review).toBe(true);
      const tiny = await upload(c, [
        { name: 'file', filename: 't.jpg', data: new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]) },
        { name: 'user_id', data: user },
      ]);
      const long = await upload(c, [
        { name: 'file', filename: 'long.pdf', data: enc.encode(`%PDF-1.7\n${'<< /Type /Page >>\n'.repeat(21)}%%EOF`) },
        { name: 'user_id', data: user },
      ]);
      await c.advance(30);
      expect((await c.get(`/lab_report/v1/parser/job/${reviewed.body.id}`)).body).toMatchObject({ status: 'started', is_reviewed: false });
      expect((await c.get(`/lab_report/v1/parser/job/${tiny.body.id}`)).body).toMatchObject({
        status: 'failed',
        failure_reason: 'low_quality',
        data: null,
      });
      expect((await c.get(`/lab_report/v1/parser/job/${long.body.id}`)).body).toMatchObject({
        status: 'failed',
        failure_reason: 'too_many_pages',
      });
      await c.advance(2 * 3600);
      const done = await c.get(`/lab_report/v1/parser/job/${reviewed.body.id}`);
      expect(done.body).toMatchObject({ status: 'completed', is_reviewed: true, needs_human_review: true });
      oas?.expectValid('ParsingJob', done.body);
      expectWire('lab_report.parser_job.get', done);
    });

    it('answers malformed uploads with the real errors', async () => {
      const c = createClient(adapter, { seed: 163, ...SMALL });
      const user = await firstUserId(c);
      const notMultipart = await c.post('/lab_report/v1/parser/job', { file: 'x', user_id: user });
      expect(notMultipart.status).toBe(422);
      expect(notMultipart.body.detail.map((d: any) => [d.type, d.loc])).toEqual([
        ['missing', ['body', 'file']],
        ['missing', ['body', 'user_id']],
      ]);
      const broken = await c.post('/lab_report/v1/parser/job', enc.encode('--nope\r\n'), { headers: { 'content-type': TYPE } });
      expect(broken.status).toBe(400);
      expect(broken.body).toEqual({ detail: FORM_MESSAGES.parseError });
      const noFile = await upload(c, [{ name: 'user_id', data: user }]);
      expect(noFile.status).toBe(422);
      expect(noFile.body.detail[0]).toMatchObject({ type: 'missing', loc: ['body', 'file'] });
      const textFile = await upload(c, [
        { name: 'file', data: 'not a file' },
        { name: 'user_id', data: user },
      ]);
      expect(textFile.status).toBe(422);
      expect(textFile.body.detail[0].loc).toEqual(['body', 'file', 0]);
      const badUser = await upload(c, [
        { name: 'file', filename: 'r.pdf', data: PDF },
        { name: 'user_id', data: 'abc' },
      ]);
      expect(badUser.status).toBe(422);
      const unknownUser = await upload(c, [
        { name: 'file', filename: 'r.pdf', data: PDF },
        { name: 'user_id', data: UNKNOWN_ID },
      ]);
      expect(unknownUser.body).toEqual({ detail: LABS_ERRORS.userNotOnTeam });
      const empty = await upload(c, [
        { name: 'file', filename: 'empty.pdf', data: new Uint8Array(0) },
        { name: 'user_id', data: user },
      ]);
      expect(empty.status).toBe(400);
      expect(empty.body).toEqual({ detail: LABS_TEXTS.parserEmptyFile('empty.pdf') });
      const wrongType = await upload(c, [
        { name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'hello' },
        { name: 'user_id', data: user },
      ]);
      expect(wrongType.body).toEqual({ detail: LABS_TEXTS.parserFileType('notes.txt') });
      const big = new Uint8Array(10_000_001);
      big.set(PDF);
      const tooLarge = await upload(c, [
        { name: 'file', filename: 'big.pdf', data: big },
        { name: 'user_id', data: user },
      ]);
      expect(tooLarge.status).toBe(400);
      expect(tooLarge.body).toEqual({ detail: LABS_TEXTS.parserFileTooLarge('big.pdf') });
      const overLimit = await upload(c, [
        { name: 'file', filename: 'huge.pdf', data: new Uint8Array(10_500_000) },
        { name: 'user_id', data: user },
      ]);
      expect(overLimit.status).toBe(413);
      // Nothing was created by the refused uploads.
      expect((await c.get(`/lab_report/v1/parser/job/${UNKNOWN_ID}`)).body).toEqual({ detail: LABS_ERRORS.parserJobNotFound });
      const journal = await c.get('/_sandbox/events', { query: { event_type_prefix: 'lab_report.' } });
      expect(journal.status).toBe(200);
      expect(journal.body.total).toBe(0);
    });
  });
}
