/**
 * Lab report parsing jobs (data OpenAPI tag `lab_report`; docs lab/report-parsing): an upload
 * (PDF, JPEG or PNG, up to 10 MB each) becomes a job that is `started` at once and `completed`
 * (or `failed`) `PARSE_MS` later on the sandbox clock; with `needs_human_review` it completes
 * `REVIEW_MS` after that, reviewed. The structured results are derived from the files' bytes
 * (`fixtures/labs/lab-report-parse.ts`). Each change emits `lab_report.parsing_job.created` /
 * `.updated`. 300 non-failed jobs per team environment, as the reference's sandbox.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { jobKind } from '../../engine/job-kinds.js';
import type { Partition } from '../../engine/tenancy.js';
import type { Domain } from '../domain-context.js';
import { concatBytes, toHex } from '../../engine/bytes.js';
import type { UploadedFile } from '../../engine/multipart.js';
import { partitionSlot } from '../../engine/world.js';
import { type ParsedReport, parseReport, type ReportKind } from '../../fixtures/labs/lab-report-parse.js';
import { usersOf, type User } from '../users/users.js';
import { LABS_ERRORS, LABS_TEXTS, labsError } from './errors.js';
import type { z } from 'zod';
import type * as W from '../../wire/schemas.js';
import { dataClass } from '../../engine/world-codec.js';

const PARSE_MS = 30_000;
const REVIEW_MS = 2 * 3_600_000;
const MAX_FILE_BYTES = 10_000_000;
const NON_FAILED_LIMIT = 300;
const JOB_LIMIT = 1000;

type JobStatus = 'upload_pending' | 'started' | 'completed' | 'failed';
type FailureReason = 'invalid_input' | 'low_quality' | 'not_english' | 'too_many_pages' | 'processing_error';

interface ParsingJob {
  id: string;
  user_id: string;
  status: JobStatus;
  failure_reason: FailureReason | null;
  data: ParsedReport | null;
  needs_human_review: boolean;
  is_reviewed: boolean;
  hash: string;
  created_at: number;
}

class ParsingJobStore {
  private readonly byId = new Map<string, ParsingJob>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): ParsingJob | undefined {
    return this.byId.get(id);
  }

  add(job: ParsingJob): void {
    this.byId.set(job.id, job);
  }
  nonFailed = 0;
}
dataClass('ParsingJobStore', ParsingJobStore);

const parsingJobsOf = partitionSlot('lab_report_jobs', () => new ParsingJobStore());

/**
 * `ParsingJob`, plus `job_id` (the same id): the official SDK (3.1.551) requires it although the
 * OpenAPI document does not declare it; without it every SDK call would throw.
 */
export function parsingJobView(job: ParsingJob): z.input<typeof W.ParsingJob> {
  return {
    id: job.id,
    job_id: job.id,
    status: job.status,
    failure_reason: job.failure_reason,
    data: job.data,
    needs_human_review: job.needs_human_review,
    is_reviewed: job.is_reviewed,
  };
}

function kindOf(bytes: Uint8Array): ReportKind | null {
  const starts = (sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
  return null;
}

/** Pages of a PDF as its `/Type /Page` objects (not `/Pages`), counted up to `limit + 1`. */
function pdfPages(bytes: Uint8Array, limit: number): number {
  const text = new TextDecoder('latin1').decode(bytes);
  const re = /\/Type\s*\/Page(?![a-zA-Z])/g;
  let n = 0;
  while (re.exec(text) && n <= limit) n++;
  return n;
}

const MAX_PAGES = 20;

/** Why the parser gives up on these files, if it does: tiny images, PDFs over 20 pages. */
function failureOf(files: ReadonlyArray<{ kind: ReportKind; bytes: Uint8Array }>): FailureReason | null {
  for (const f of files) {
    if (f.kind !== 'pdf' && f.bytes.length < 100) return 'low_quality';
    if (f.kind === 'pdf' && pdfPages(f.bytes, MAX_PAGES) > MAX_PAGES) return 'too_many_pages';
  }
  return null;
}

function emit(d: Domain, user: User, job: ParsingJob, type: 'lab_report.parsing_job.created' | 'lab_report.parsing_job.updated'): void {
  const { world, partition } = d;
  world.events.emit(partition, {
    event_type: type,
    data: parsingJobView(job),
    team_id: partition.team.id,
    user_id: user.user_id,
    client_user_id: user.client_user_id,
  });
}

/** Checks the upload (everything first), then creates the job and schedules its parse. */
export function createParsingJob(d: Domain, input: { files: UploadedFile[]; user_id: string; needs_human_review: boolean }): ParsingJob {
  const { world, partition } = d;
  if (input.files.length === 0) throw labsError.invalid(['body', 'file'], LABS_ERRORS.parserNoFile);
  const user = usersOf(partition, world).liveUser(input.user_id);
  if (!user) throw labsError.notFound(LABS_ERRORS.userNotOnTeam);
  const files = input.files.map((f) => {
    if (f.bytes.length === 0) throw labsError.badRequest(LABS_TEXTS.parserEmptyFile(f.filename));
    if (f.bytes.length > MAX_FILE_BYTES) throw labsError.badRequest(LABS_TEXTS.parserFileTooLarge(f.filename));
    const kind = kindOf(f.bytes);
    if (!kind) throw labsError.badRequest(LABS_TEXTS.parserFileType(f.filename));
    return { kind, bytes: f.bytes };
  });
  const store = parsingJobsOf(partition, world);
  if (store.nonFailed >= NON_FAILED_LIMIT) throw labsError.badRequest(LABS_ERRORS.parserLimit);
  if (store.size >= JOB_LIMIT) throw labsError.badRequest(LABS_ERRORS.parserJobLimit);
  const hash = toHex(sha256(concatBytes(files.map((f) => f.bytes))));
  const failure = failureOf(files);
  const job: ParsingJob = {
    id: world.ids.uuid('lab_report_job', partition.id),
    user_id: user.user_id,
    status: 'started',
    failure_reason: null,
    data: null,
    needs_human_review: input.needs_human_review,
    is_reviewed: false,
    hash,
    created_at: world.clock.now(),
  };
  store.add(job);
  store.nonFailed++;
  emit(d, user, job, 'lab_report.parsing_job.created');
  world.scheduler.after(PARSE_MS, REPORT_PARSED, { partition, user, job, failure }, `lab_report.parsing_job ${job.id} -> parsed`);
  return job;
}

type ParsingArgs = { partition: Partition; user: User; job: ParsingJob };

/** The report is parsed (or fails); one that needs human review waits REVIEW_MS more. */
const REPORT_PARSED = jobKind<ParsingArgs & { failure: FailureReason | null }>(
  'lab_report.parsed',
  (world, { partition, user, job, failure }) => {
    const d: Domain = { world, partition };
    if (failure) {
      job.status = 'failed';
      job.failure_reason = failure;
      parsingJobsOf(partition, world).nonFailed--;
      emit(d, user, job, 'lab_report.parsing_job.updated');
      return;
    }
    const data = parseReport(job.hash, new Date(job.created_at).toISOString().slice(0, 10));
    if (!job.needs_human_review) {
      Object.assign(job, { status: 'completed', data });
      emit(d, user, job, 'lab_report.parsing_job.updated');
      return;
    }
    world.scheduler.after(REVIEW_MS, REPORT_REVIEWED, { partition, user, job }, `lab_report.parsing_job ${job.id} -> reviewed`);
  },
);

/** A human reviewed the parsed report. */
const REPORT_REVIEWED = jobKind<ParsingArgs>('lab_report.reviewed', (world, { partition, user, job }) => {
  const data = parseReport(job.hash, new Date(job.created_at).toISOString().slice(0, 10));
  Object.assign(job, { status: 'completed', data, is_reviewed: true });
  emit({ world, partition }, user, job, 'lab_report.parsing_job.updated');
});

export function findParsingJob(d: Domain, id: string): ParsingJob {
  const { world, partition } = d;
  const job = parsingJobsOf(partition, world).get(id);
  if (!job) throw labsError.notFound(LABS_ERRORS.parserJobNotFound);
  return job;
}
