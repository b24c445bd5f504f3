/**
 * Timeseries and summaries answers kept for the users whose sources are kept between reads
 * (read-sources.ts, issue 45): a page read again (a dashboard's refresh, the same chart) while
 * nothing it is built from changed answers the same sealed view, neither generated nor rendered
 * again (summaries: state/wearables/summaries.ts says what they are built from).
 *
 * What a page is built from is its signature, computed on every read from the user's data
 * sources of the resource (dataSources: the connections, pulls, ingestion bounds and source
 * priorities as they are now): each source's provider (a kept user's source of a provider is one
 * object while the user is kept) and order, its visible ranges within the page's window, and the
 * instant read at, unless the window is settled (SETTLED after the last visible instant in it,
 * when every sample starting in it has ended: samples last hours at most). The samples of a
 * source are a pure function of the kept source, the ranges and that instant; the revision rate
 * changes summaries, not samples. A changed signature builds the page again.
 *
 * The answers live beside the kept user's subject (a `WeakMap`: gone when its keeper drops or
 * rebuilds the user, never part of a world), at most ANSWERS_PER_USER pages and USER_SAMPLES
 * samples per user (the least recently read dropped first), only pages of at most MAX_SAMPLES
 * samples; the keeper counts their samples against the bound of all kept users together.
 */
import { sealView } from '../../engine/render-cache.js';
import { clip, type Range } from '../../fixtures/wearables/summaries.js';
import type { Subject } from '../../fixtures/wearables/wearable-profile.js';
import { SETTLED } from './read-views.js';
import type { SourceCtx } from '../../fixtures/wearables/timeseries-model.js';

/** Pages kept per user (every timeseries and summary route of a user, a few windows each); past it, the least recently read go first. */
const ANSWERS_PER_USER = 512;
/** Largest page kept, in samples (larger pages are built every time). */
const MAX_SAMPLES = 5000;
/** Samples of the pages kept per user (about 5 MB); past it, the least recently read go first. */
const USER_SAMPLES = 16_000;

interface KeptAnswer {
  signature: string;
  view: object;
  samples: number;
}

interface Answers {
  byKey: Map<string, KeptAnswer>;
  /** Samples of the kept pages together. */
  samples: number;
}

const answersOf = new WeakMap<Subject, Answers>();

/** Samples of the pages kept for a user (its keeper counts them). */
export function keptAnswerSamples(subject: Subject): number {
  return answersOf.get(subject)?.samples ?? 0;
}

/** What a page's signature reads of a user's data source (wearable-data.ts `DataSource`). */
export interface AnswerSource {
  link: { provider: { id: number } };
  src: SourceCtx;
  ranges: readonly Range[];
  order: number;
}

/** The window a page covers and the instant it is read at. */
export interface AnswerWindow {
  from: number;
  to: number;
  now: number;
}

/** What a page over `[from, to]` read at `now` is built from (see the file's comment). */
function signatureOf(sources: readonly AnswerSource[], { from, to, now }: AnswerWindow, settles: boolean): string {
  let signature = '';
  let last = Number.NEGATIVE_INFINITY;
  for (const s of sources) {
    signature += `${s.link.provider.id}:${s.order}`;
    for (const [a, b] of clip(s.ranges, from, to)) {
      signature += `:${a}-${b}`;
      if (b > last) last = b;
    }
    signature += ';';
  }
  return settles && now >= last + SETTLED ? `${signature}settled` : `${signature}${now}`;
}

/**
 * The page `key` (the route and its query) over `[from, to]` of a user's `sources` read at `now`:
 * kept while its signature holds, else built by `build` (its view and how many samples it holds).
 * `settles`: false for an answer that depends on the instant whatever its window (kept for the instant only).
 */
export function keptAnswer<T extends object>(
  sources: readonly AnswerSource[],
  key: string,
  window: AnswerWindow,
  build: () => { view: T; samples: number },
  settles = true,
): T {
  const first = sources[0];
  // Only a kept user's sources (a fresh source, a test's, keeps nothing).
  if (!first?.src.memo) return build().view;
  const subject = first.src.subject;
  const signature = signatureOf(sources, window, settles);
  let answers = answersOf.get(subject);
  const kept = answers?.byKey.get(key);
  if (kept !== undefined && kept.signature === signature) {
    // The most recently read last (the first to go are the least recently read).
    const byKey = (answers as Answers).byKey;
    byKey.delete(key);
    byKey.set(key, kept);
    return kept.view as T;
  }
  if (answers !== undefined && kept !== undefined) {
    answers.byKey.delete(key);
    answers.samples -= kept.samples;
  }
  const { view, samples } = build();
  if (samples > MAX_SAMPLES) return view;
  if (answers === undefined) answersOf.set(subject, (answers = { byKey: new Map(), samples: 0 }));
  for (const [oldKey, old] of answers.byKey) {
    if (answers.byKey.size < ANSWERS_PER_USER && answers.samples + samples <= USER_SAMPLES) break;
    answers.byKey.delete(oldKey);
    answers.samples -= old.samples;
  }
  answers.byKey.set(key, { signature, view: sealView(view), samples });
  answers.samples += samples;
  return view;
}
