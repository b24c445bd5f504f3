/**
 * A world document's limits (DOCUMENT_LIMITS, issue 40 item 3) are the CLI's and the control
 * routes': `--users`, `--seed`, `--start-at` and one `POST /_sandbox/clock/advance`.
 */
import { describe, expect, it } from 'vitest';
import { CliError, parseCli } from '../../src/adapters/cli-options.js';
import { DOCUMENT_LIMITS } from '../../src/engine/persist-types.js';
import { MAX_ADVANCE_SECONDS } from '../../src/state/sandbox/errors.js';

const cli = (...args: string[]) => parseCli(args, {});

describe('world document limits', () => {
  it("are the CLI flags' bounds", () => {
    expect(cli('--users', String(DOCUMENT_LIMITS.users)).users).toBe(DOCUMENT_LIMITS.users);
    expect(() => cli('--users', String(DOCUMENT_LIMITS.users + 1))).toThrow(CliError);
    expect(cli('--seed', String(DOCUMENT_LIMITS.seedMax)).seed).toBe(DOCUMENT_LIMITS.seedMax);
    expect(() => cli('--seed', String(DOCUMENT_LIMITS.seedMax + 1))).toThrow(CliError);
    expect(() => cli('--seed', String(DOCUMENT_LIMITS.seedMin - 1))).toThrow(CliError);
    expect(cli('--start-at', new Date(DOCUMENT_LIMITS.startAtMax).toISOString()).startAt).toBeDefined();
    expect(() => cli('--start-at', '+010000-01-01T00:00:00Z')).toThrow(/between 1970-01-01 and 9999-12-31/);
    expect(() => cli('--start-at', '1969-12-31T23:59:59Z')).toThrow(CliError);
  });

  it("hold one advance to the clock route's", () => {
    expect(DOCUMENT_LIMITS.advanceMs).toBe(MAX_ADVANCE_SECONDS * 1000);
  });
});
