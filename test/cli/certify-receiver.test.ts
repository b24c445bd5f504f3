/**
 * `health-sandbox certify-receiver` as a child process (issue 46): exit 0 for a receiver that
 * verifies with `svix`, 1 naming the signature checks for one that accepts everything, 2 for bad
 * arguments or a metadata address; `--json` prints `{checks: [{id, passed, sent, received, detail}]}`.
 */
import { execFile } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { cliArgs } from '../support/cli-command.js';
import { SECRET, SIGNATURE_CHECKS, testReceiver, type TestReceiver } from '../webhooks/certify-receivers.js';

const receivers: TestReceiver[] = [];
afterAll(async () => {
  await Promise.all(receivers.map((r) => r.close()));
});

function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, cliArgs(['certify-receiver', ...args]), { env: { ...process.env } }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ code, stdout, stderr });
    });
  });
}

async function receiver(kind: Parameters<typeof testReceiver>[0]): Promise<TestReceiver> {
  const r = await testReceiver(kind);
  receivers.push(r);
  return r;
}

describe('health-sandbox certify-receiver', () => {
  it('exits 0 for a receiver verifying with svix, with p50 and max answer times', async () => {
    const r = await receiver('svix');
    const { code, stdout } = await run([r.url, '--secret', SECRET]);
    expect(stdout).toContain('PASS  signed_event_accepted');
    expect(stdout).toMatch(/Answer time: p50 \d+ ms, max \d+ ms \(timeout 15000 ms\)/);
    expect(stdout).toContain('Every check passed.');
    expect(code).toBe(0);
  });

  it('exits 1 naming the failed signature checks of a receiver that accepts everything; --json lists every check', async () => {
    const r = await receiver('accept_all');
    const text = await run([r.url, '--secret', SECRET]);
    expect(text.code).toBe(1);
    for (const id of SIGNATURE_CHECKS) expect(text.stdout).toContain(`FAIL  ${id}`);
    const json = await run([r.url, `--secret=${SECRET}`, '--json']);
    expect(json.code).toBe(1);
    const body = JSON.parse(json.stdout) as {
      checks: Array<{ id: string; passed: boolean; sent: unknown[]; received: unknown[]; detail: string }>;
    };
    expect(body.checks.filter((c) => !c.passed).map((c) => c.id)).toEqual(SIGNATURE_CHECKS);
    for (const c of body.checks) expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'passed', 'sent', 'received', 'detail']));
  });

  it('fails the redelivery check of a receiver that refuses a seen svix-id, and a silent one under --timeout', async () => {
    const r = await receiver('no_redelivery');
    const once = await run([r.url, '--secret', SECRET, '--json']);
    expect(once.code).toBe(1);
    expect((JSON.parse(once.stdout) as { failed: string[] }).failed).toEqual(['redelivery_accepted']);
    const silent = await receiver('silent');
    const slow = await run([silent.url, '--secret', SECRET, '--timeout', '0.05', '--json']);
    expect(slow.code).toBe(1);
    expect((JSON.parse(slow.stdout) as { checks: Array<{ detail: string }> }).checks[0]!.detail).toMatch(/no answer \(timeout/);
  });

  it('exits 2 for bad arguments and for a metadata address (nothing sent)', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['http://127.0.0.1:9/x'])).code).toBe(2);
    expect((await run(['http://127.0.0.1:9/x', '--secret', 'nope'])).code).toBe(2);
    expect((await run(['http://127.0.0.1:9/x', '--secret', SECRET, '--bogus'])).code).toBe(2);
    const metadata = await run(['http://169.254.169.254/latest', '--secret', SECRET]);
    expect(metadata.code).toBe(2);
    expect(metadata.stderr).toContain('metadata');
  });
});
