/**
 * A kept activity summary is read again at any instant once its day is settled
 * (state/wearables/read-views.ts, `SETTLED` after the day's end, issue 45): what that relies on
 * holds for the generated data. For every provider recording activity, users of two seeds and
 * three weeks of days, the summary as first sent over the whole day is the same at the instant
 * the day settles as a month later; and a read through the kept views answers what a fresh
 * build answers, at instants before, at and after the day settles, over the whole day and over
 * its afternoon only (the kept summary is for the part of the day it was built over). And a kept
 * answer (read-answers.ts) is built again at each new instant until its window is settled.
 */
import { expect, it } from 'vitest';
import { createSandbox } from '../../src/index.js';
import { activityAsSent } from '../../src/fixtures/wearables/summaries.js';
import { PROVIDERS } from '../../src/fixtures/wearables/providers.js';
import { DAY, localDay, localMidnight } from '../../src/fixtures/wearables/wearable-time.js';
import { usersOf } from '../../src/state/users/users.js';
import { readSource } from '../../src/state/wearables/read-sources.js';
import { SETTLED, readActivitySummary } from '../../src/state/wearables/read-views.js';
import { keptAnswer } from '../../src/state/wearables/read-answers.js';
import type { DataSource } from '../../src/state/wearables/wearable-data.js';

const ALWAYS = [[Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY]] as const;

it('an activity summary as first sent no longer changes once its day is settled', () => {
  let days = 0;
  for (const seed of [4, 31]) {
    const world = createSandbox({ seed, users: 3, usersElsewhere: 0, logger: () => undefined }).world;
    const now = world.clock.now();
    for (const team of world.tenancy.teams.values())
      for (const user of usersOf(world.tenancy.partition(team, 'sandbox'), world).all())
        for (const provider of PROVIDERS) {
          if (!provider.resources.includes('activity')) continue;
          const src = readSource(world, user, provider);
          const today = localDay(src.subject.zone, now);
          for (let day = today - 21; day < today; day++) {
            const dayEnd = localMidnight(src.subject.zone, day + 1);
            const late = JSON.stringify(activityAsSent(src, day, ALWAYS, dayEnd + 30 * DAY));
            expect(JSON.stringify(activityAsSent(src, day, ALWAYS, dayEnd + SETTLED)), `${provider.slug} day ${day}`).toBe(late);
            // Read through the kept views: before, at and after the day settles, each as built afresh.
            const afternoon = [[localMidnight(src.subject.zone, day) + 12 * 3_600_000, Number.POSITIVE_INFINITY]] as const;
            src.revisionRate = 0;
            for (const at of [dayEnd - 3_600_000, dayEnd + 60_000, dayEnd + SETTLED, dayEnd + SETTLED + 7 * DAY])
              for (const ranges of [ALWAYS, afternoon, ALWAYS])
                expect(readActivitySummary(src, day, ranges, at)).toEqual(activityAsSent(src, day, ranges, at));
            days++;
          }
        }
  }
  expect(days).toBeGreaterThan(300);
});

it('a kept answer is built again at a new instant until its window is settled, and while its ranges change', () => {
  const world = createSandbox({ seed: 4, users: 1, usersElsewhere: 0, logger: () => undefined }).world;
  const team = [...world.tenancy.teams.values()][0];
  const user = team ? usersOf(world.tenancy.partition(team, 'sandbox'), world).all()[0] : undefined;
  const provider = PROVIDERS[0];
  if (!user || !provider) throw new Error('no user');
  const src = readSource(world, user, provider);
  const source = (ranges: Array<[number, number]>) => [{ link: { provider } as DataSource['link'], src, ranges, order: provider.id }];
  let builds = 0;
  const read = (ranges: Array<[number, number]>, to: number, now: number) =>
    keptAnswer(source(ranges), 'page', { from: 0, to, now }, () => {
      builds++;
      return { view: { now }, samples: 1 };
    });
  const to = 100 * DAY;
  const open: Array<[number, number]> = [[10 * DAY, 200 * DAY]];
  expect(read(open, to, to + DAY).now).toBe(to + DAY);
  expect(read(open, to, to + DAY).now).toBe(to + DAY); // the same instant: kept
  expect(builds).toBe(1);
  expect(read(open, to, to + DAY + 1).now).toBe(to + DAY + 1); // not settled: built again
  expect(read(open, to, to + SETTLED).now).toBe(to + SETTLED); // settled now (built again: it was not before)
  expect(read(open, to, to + SETTLED + 5 * DAY).now).toBe(to + SETTLED); // settled: kept at any instant
  expect(builds).toBe(3);
  expect(read([[11 * DAY, 200 * DAY]], to, to + SETTLED + 5 * DAY).now).toBe(to + SETTLED + 5 * DAY); // other ranges: built again
  expect(read([[11 * DAY, 200 * DAY]], to, to + SETTLED + 6 * DAY).now).toBe(to + SETTLED + 5 * DAY);
  // An answer that never settles (a menstrual cycle's: today's date) is kept for the instant only.
  const never = (now: number) => keptAnswer(source(open), 'never', { from: 0, to, now }, () => ({ view: { now }, samples: 1 }), false);
  expect(never(to + 40 * DAY).now).toBe(to + 40 * DAY);
  expect(never(to + 41 * DAY).now).toBe(to + 41 * DAY);
});
