/**
 * Every method of the control client of `health-sandbox/testing` (issue 17, review 17 items 5
 * and 6), run twice against one small server: through `startSandbox`'s own client and through
 * `connectSandbox(url)`. Also checked: each answer type is the wire type of the route's schema
 * (tsc: `expectTypeOf` fails to compile if a type regresses to `unknown`; at run time: the
 * client's schema is the one the route declares), and bad input is a rejected promise, never a
 * synchronous throw.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { Connection as WireConnection } from '../../src/index.js';
import { ROUTES } from '../../src/routes.js';
import {
  ControlError,
  connectSandbox,
  startSandbox,
  type SandboxControl,
  type ScenarioInput,
  type StartedSandbox,
} from '../../src/testing.js';
import type * as T from '../../src/testing.js';
import * as W from '../../src/wire/schemas.js';
import { CertifyResultView, IntegrationReport } from '../../src/wire/certify-report.js';
import { WebhookFaultList, WebhookFaultView } from '../../src/wire/webhook-faults.js';

const ADMIN = 'kit-admin-token';
const SCENARIO: ScenarioInput = {
  world: 'empty',
  feed: 'off',
  teams: [{ name: 'Controls quiet team' }],
  users: [
    { client_user_id: 'hooked', connections: [{ provider: 'oura' }] },
    // A team without webhook endpoints: its connection controls cause no deliveries.
    { client_user_id: 'quiet', team: 'Controls quiet team', connections: [{ provider: 'oura' }] },
  ],
  webhooks: [{ receiver: 'ctl-hook', filter_types: ['provider.connection.created'] }],
};

type Answer<K extends keyof SandboxControl> = SandboxControl[K] extends (...args: never[]) => Promise<infer R> ? R : never;
type Out<S extends z.ZodType> = z.output<S>;

// tsc: each method answers z.output of its route's schema (none is `unknown`).
expectTypeOf<Answer<'credentials'>>().toEqualTypeOf<Out<typeof W.SandboxCredentials>>();
expectTypeOf<Answer<'clock'>>().toEqualTypeOf<Out<typeof W.ClockState>>();
expectTypeOf<Answer<'advance'>>().toEqualTypeOf<Out<typeof W.AdvanceDone>>();
expectTypeOf<Answer<'reset'>>().toEqualTypeOf<Out<typeof W.ResetDone>>();
expectTypeOf<Answer<'loadScenario'>>().toEqualTypeOf<Out<typeof W.ScenarioLoaded>>();
expectTypeOf<Answer<'events'>>().toEqualTypeOf<Array<Out<typeof W.JournalEntry>>>();
expectTypeOf<Answer<'jobs'>>().toEqualTypeOf<Out<typeof W.JobList>>();
expectTypeOf<Answer<'routes'>>().toEqualTypeOf<Out<typeof W.RouteListing>>();
expectTypeOf<Answer<'feed'>>().toEqualTypeOf<Out<typeof W.FeedState>>();
expectTypeOf<Answer<'healthSdk'>>().toEqualTypeOf<Out<typeof W.HealthSdkSettings>>();
expectTypeOf<Answer<'connectionError'>>().toEqualTypeOf<WireConnection>();
expectTypeOf<Answer<'reconnect'>>().toEqualTypeOf<Out<typeof W.Connection>>();
expectTypeOf<Answer<'historicalPull'>>().toEqualTypeOf<Out<typeof W.HistoricalPullForced>>();
expectTypeOf<Answer<'webhookAttempts'>>().toEqualTypeOf<Out<typeof W.DeliveryAttemptPage>>();
expectTypeOf<Awaited<ReturnType<T.LabControls['lifecycle']>>>().toEqualTypeOf<Out<typeof W.LabLifecycle>>();
expectTypeOf<Awaited<ReturnType<T.WebhookControls['recover']>>>().toEqualTypeOf<Out<typeof W.RecoverDone>>();
expectTypeOf<Awaited<ReturnType<T.ReceiverHandle['deliveries']>>>().toEqualTypeOf<Array<Out<typeof W.ReceiverDelivery>>>();
expectTypeOf<T.ClockView>().not.toBeUnknown();

/** Route id -> the wire schema the client's answer type comes from. */
const CLIENT_SCHEMAS: Record<string, z.ZodType | null> = {
  'sandbox.credentials': W.SandboxCredentials,
  'sandbox.clock.get': W.ClockState,
  'sandbox.clock.advance': W.AdvanceDone,
  'sandbox.reset': W.ResetDone,
  'sandbox.scenario.put': W.ScenarioLoaded,
  'sandbox.scenario.delete': W.ScenarioLoaded,
  'sandbox.events.list': W.JournalPage,
  'sandbox.jobs.list': W.JobList,
  'sandbox.routes': W.RouteListing,
  'sandbox.wearables.feed.get': W.FeedState,
  'sandbox.wearables.feed.set': W.FeedState,
  'sandbox.wearables.health_sdk.get': W.HealthSdkSettings,
  'sandbox.wearables.health_sdk.set': W.HealthSdkSettings,
  'sandbox.connections.error': W.Connection,
  'sandbox.connections.reconnect': W.Connection,
  'sandbox.historical_pulls.force': W.HistoricalPullForced,
  'sandbox.labs.lifecycle': W.LabLifecycle,
  'sandbox.teams.labs.get': W.TeamLabsSettings,
  'sandbox.teams.labs.put': W.TeamLabsSettings,
  'sandbox.labs.scenarios': W.LabScenarios,
  'sandbox.webhooks.endpoints': W.ControlEndpointList,
  'sandbox.webhooks.messages': W.DeliveryMessagePage,
  'sandbox.webhooks.message': W.DeliveryMessageDetail,
  'sandbox.webhooks.attempts': W.DeliveryAttemptPage,
  'sandbox.webhooks.resend': W.ResendDone,
  'sandbox.webhooks.recover': W.RecoverDone,
  'sandbox.webhooks.settings.get': W.DeliverySettings,
  'sandbox.webhooks.settings': W.DeliverySettings,
  'sandbox.webhooks.operational': W.OperationalEvents,
  'sandbox.receiver.get': W.ReceiverState,
  'sandbox.receiver.configure': W.ReceiverConfigured,
  'sandbox.receiver.clear': null,
  'sandbox.health': W.Health,
  'sandbox.openapi': W.OpenApiDocument,
  'sandbox.orgs.list': W.SandboxOrgList,
  'sandbox.orgs.create': W.SandboxOrgCreated,
  'sandbox.orgs.get': W.SandboxOrg,
  'sandbox.orgs.plan': W.SandboxOrg,
  'sandbox.orgs.invite.accept': W.Member,
  'sandbox.orgs.mail': W.OrgMail,
  'sandbox.teams.beta.get': W.BetaFeatures,
  'sandbox.teams.beta.put': W.BetaFeatures,
  'sandbox.ehr_dashboard.get': W.EhrDashboardSession,
  'sandbox.ehr_pipelines.deliveries': W.EhrDeliveries,
  'sandbox.pipelines.streams': W.PipelineStreams,
  'sandbox.pipelines.stream.read': W.PipelineStreamRecords,
  'sandbox.pipelines.stream.clear': W.PipelineStreamCleared,
  'sandbox.pipelines.streams.clear': W.PipelineStreamsCleared,
  'sandbox.pipelines.ndjson': W.PipelineNdjson,
  'sandbox.faults.add': W.FaultRuleView,
  'sandbox.faults.list': W.FaultList,
  'sandbox.faults.remove': W.FaultRuleView,
  'sandbox.faults.clear': W.FaultsCleared,
  'sandbox.faults.order': W.LabFaultApplied,
  'sandbox.faults.outage': W.ProviderOutage,
  'sandbox.faults.webhooks.add': WebhookFaultView,
  'sandbox.faults.webhooks.list': WebhookFaultList,
  'sandbox.faults.webhooks.clear': W.FaultsCleared,
  'sandbox.report': IntegrationReport,
  'sandbox.receivers.certify': CertifyResultView,

  'sandbox.requests.list': W.RequestPage,
  // HTML pages for a browser: the client gives their URL (`inspectorUrl`).
  'sandbox.ui': null,
  'sandbox.index': null,

  'sandbox.snapshots.list': W.SnapshotList,
  'sandbox.snapshots.create': W.SnapshotInfo,
  'sandbox.snapshots.restore': W.WorldRestored,
  'sandbox.snapshots.delete': null,
  'sandbox.world.get': W.WorldDocument,
  'sandbox.world.put': W.WorldRestored,
};
let server: StartedSandbox;
let remote: SandboxControl;
beforeAll(async () => {
  server = await startSandbox({ scenario: SCENARIO });
  remote = connectSandbox(server.url);
});
afterAll(() => server?.close());

/** Waits until the server's world is built and its deliveries are done (no polling: the sandbox's own settle). */
async function settled(): Promise<void> {
  await server.sandbox.ready;
  await server.sandbox.settle();
}

describe("the control client answers its routes' declared schemas", () => {
  it("each method's schema is the one its route declares; every control route has a method", () => {
    const control = ROUTES.filter((r) => r.path.startsWith('/_sandbox') && r.auth === 'control');
    expect(control.map((r) => r.id).filter((id) => !(id in CLIENT_SCHEMAS))).toEqual([]);
    for (const [id, schema] of Object.entries(CLIENT_SCHEMAS)) {
      const route = ROUTES.find((r) => r.id === id);
      expect(route, id).toBeDefined();
      const declared = Object.entries(route?.responses ?? {}).find(([status]) => Number(status) < 300)?.[1];
      const declaredSchema = typeof declared === 'object' ? declared.schema : undefined;
      if (schema === null) expect(declaredSchema, id).toBeUndefined();
      else expect(declaredSchema && z.toJSONSchema(declaredSchema), id).toEqual(z.toJSONSchema(schema));
    }
  });
});

describe.each([
  ['in process (startSandbox)', () => server as SandboxControl],
  ['remote (connectSandbox)', () => remote],
])('control methods, %s', (_name, get) => {
  let c: SandboxControl;
  beforeEach(async () => {
    c = get();
    await c.reset();
    await settled();
  });

  const userId = async (clientUserId: string): Promise<string> => {
    const created = await c.events({ event_type: 'provider.connection.created' });
    const entry = created.find((e) => e.envelope.client_user_id === clientUserId);
    if (!entry) throw new Error(`no connection of ${clientUserId}`);
    return entry.envelope.user_id;
  };

  it('credentials, clock, advance, reset, scenario, events, jobs and routes', async () => {
    const creds = await c.credentials();
    expect(creds.base_url).toBe(server.url);
    expect(creds.teams.map((t) => t.name)).toContain('Controls quiet team');
    const start = await c.clock();
    expect(start).toEqual({ now: '2026-01-05T09:00:00.000Z', mode: 'manual', scale: 1 });
    expect((await c.advance('1h')).now).toBe('2026-01-05T10:00:00.000Z');
    expect((await c.advance(90)).now).toBe('2026-01-05T10:01:30.000Z');
    expect(await c.reset()).toEqual({ status: 'ok', seed: null });
    await settled();
    expect((await c.clock()).now).toBe(start.now);
    expect((await c.events({ event_type: 'provider.connection.created' })).map((e) => e.envelope.client_user_id).sort()).toEqual([
      'hooked',
      'quiet',
    ]);
    expect(await c.events({ event_type: 'provider.connection.created', limit: 1 })).toHaveLength(1);
    const jobs = await c.jobs(2);
    expect(jobs.jobs.length).toBeLessThanOrEqual(2);
    expect(jobs.pending).toBeGreaterThanOrEqual(jobs.jobs.length);
    expect((await c.routes()).routes.map((r) => r.id)).toEqual(expect.arrayContaining(Object.keys(CLIENT_SCHEMAS)));
    const loaded = await c.loadScenario(SCENARIO);
    expect(loaded).toEqual({ status: 'ok', seed: 1, now: start.now });
  });

  it("bad input is a rejected promise with the control plane's status, never a synchronous throw", async () => {
    const hooked = await userId('hooked');
    const calls: Array<[string, () => Promise<unknown>, number]> = [
      ['advance(-1)', () => c.advance(-1), 422],
      ['advance(NaN)', () => c.advance(Number.NaN), 422],
      ["advance('soon')", () => c.advance('soon'), 422],
      ['advance(400 days)', () => c.advance('400d'), 422],
      ['reset(seed 1.5)', () => c.reset({ seed: 1.5 }), 422],
      [
        'loadScenario(unknown provider)',
        () => c.loadScenario({ users: [{ client_user_id: 'x', connections: [{ provider: 'fitbitt' as never }] }] }),
        422,
      ],
      ['events(limit 0)', () => c.events({ limit: 0 }), 422],
      ['jobs(0)', () => c.jobs(0), 422],
      ['feed(sometimes)', () => c.feed('sometimes' as never), 422],
      ['healthSdk(sometimes)', () => c.healthSdk({ connection_policy: 'sometimes' as never }), 422],
      ['connectionError(not a uuid)', () => c.connectionError('nobody', 'oura'), 422],
      ['connectionError(unknown user)', () => c.connectionError('00000000-0000-4000-8000-000000000000', 'oura'), 404],
      ['reconnect(not in error)', () => c.reconnect(hooked, 'oura'), 409],
      ['historicalPull(bad outcome)', () => c.historicalPull(hooked, 'oura', { outcome: 'sometimes' as never }), 422],
      ['receiver(bad name).deliveries', () => c.receiver('bad name!').deliveries(), 422],
      ['receiver.answer(status 99)', () => c.receiver('x').answer({ status: 99 }), 422],
      ['receiver(bad name).clear', () => c.receiver('bad name!').clear(), 422],
      ['webhooks.message(unknown)', () => c.webhooks.message('msg_nope'), 404],
      ['webhooks.resend(unknown)', () => c.webhooks.resend('msg_nope', 'ep_nope'), 404],
      ['webhooks.recover(bad since)', () => c.webhooks.recover('ep_nope', { since: 'yesterday' }), 422],
      ['webhooks.messages(limit 0)', () => c.webhooks.messages({ limit: 0 }), 422],
      ['webhooks.attempts(bad status)', () => c.webhooks.attempts({ status: 'odd' as never }), 422],
      ['webhookAttempts(limit 5000)', () => c.webhookAttempts({ limit: 5000 }), 422],
      ['webhooks.updateSettings(retention 0)', () => c.webhooks.updateSettings({ retention: 0 }), 422],
    ];
    const got: Array<[string, string]> = [];
    for (const [name, call, status] of calls) {
      let promise: Promise<unknown> | undefined;
      expect(() => {
        promise = call();
      }, name).not.toThrow();
      const error = await promise?.then(
        () => null,
        (e: unknown) => e,
      );
      got.push([name, error instanceof ControlError ? `ControlError ${error.status}` : String(error)]);
      expect(got.at(-1), name).toEqual([name, `ControlError ${status}`]);
    }
    expect((await c.clock()).now).toBe('2026-01-05T09:00:00.000Z');
  });

  it('connection controls: connectionError, reconnect, historicalPull', async () => {
    const quiet = await userId('quiet');
    const failed = await c.connectionError(quiet, 'oura', { error_type: 'user_not_found', message: 'Revoked in a test' });
    expect(failed).toMatchObject({
      slug: 'oura',
      status: 'error',
      error_details: { error_type: 'user_not_found', error_message: 'Revoked in a test' },
    });
    expect(await c.events({ user_id: quiet, event_type: 'provider.connection.error' })).toHaveLength(1);
    const back = await c.reconnect(quiet, 'oura');
    expect(back).toMatchObject({ slug: 'oura', status: 'connected', error_details: null });
    expect(await c.events({ user_id: quiet, event_type: 'provider.connection.created' })).toHaveLength(2);
    const forced = await c.historicalPull(quiet, 'fitbit', { outcome: 'failure', error_details: 'retry_quota_exhausted' });
    expect(forced).toEqual({ applies_to: 'next_connection', user_id: quiet, provider: 'fitbit', resources: null, outcome: 'failure' });
  });

  it('feed and feedState', async () => {
    expect(await c.feedState()).toEqual({
      enabled: false,
      mode: 'off',
      interval_seconds: 7200,
      revision_rate: 0.05,
      team_revision_rates: {},
    });
    expect(await c.feed('on')).toEqual({ enabled: true, mode: 'on', interval_seconds: 7200, revision_rate: 0.05, team_revision_rates: {} });
    expect((await c.feedState()).mode).toBe('on');
    expect(await c.feed('auto')).toMatchObject({ enabled: true, mode: 'auto' });
  });

  it('healthSdk and healthSdkState', async () => {
    expect(await c.healthSdkState()).toEqual({ connection_policy: 'auto', team_connection_policies: {} });
    const team = (await c.credentials()).teams[0]?.team_id ?? '';
    expect(await c.healthSdk({ connection_policy: 'explicit', team_id: team, environment: 'production' })).toEqual({
      connection_policy: 'auto',
      team_connection_policies: { [team]: { sandbox: 'auto', production: 'explicit' } },
    });
  });

  it('labs: lifecycle and scenarios', async () => {
    const lifecycle = await c.labs.lifecycle();
    expect(Object.keys(lifecycle.methods)).toEqual(expect.arrayContaining(['walk_in_test', 'testkit', 'at_home_phlebotomy']));
    expect(lifecycle.methods.walk_in_test?.statuses.completed).toBe('completed.walk_in_test.completed');
    const hints = await c.labs.scenarios();
    expect(hints.zip_hints.length).toBeGreaterThan(0);
    expect(hints.last_name_hints.length).toBeGreaterThan(0);
  });

  it('receiver and webhook controls: answer, resend, recover, attempts, messages, endpoints, settings, operational events, clear', async () => {
    const hook = c.receiver('ctl-hook');
    expect(hook.url).toBe(`${server.url}/_sandbox/receiver/ctl-hook`);
    const first = await hook.deliveries();
    expect(first).toEqual([expect.objectContaining({ event_type: 'provider.connection.created', verified: true, answered_status: 200 })]);
    const creds = await c.credentials();
    const ep = (await c.webhooks.endpoints({ environment: 'sandbox' })).endpoints.find((e) => e.url === hook.url);
    expect(ep).toMatchObject({ team_id: creds.teams[0]?.team_id, environment: 'sandbox', disabled: false });
    const endpointId = ep?.id ?? '';
    const page = await c.webhooks.messages({ endpoint_id: endpointId });
    expect(page.messages.map((m) => m.id)).toEqual([first[0]?.msg_id]);
    const msgId = page.messages[0]?.id ?? '';

    // 429 once: the manual attempt fails (and is not retried), the message is failed.
    const configured = await hook.answer({ status: 429, retry_after: 60, times: 1 });
    expect(configured).toMatchObject({ name: 'ctl-hook', config: { status: 429, retry_after: '60' } });
    const resent = await c.webhooks.resend(msgId, endpointId);
    expect(resent.attempt).toMatchObject({ msg_id: msgId, trigger: 'manual', status: 'failed', response: { status_code: 429 } });
    expect((await c.webhooks.messages({ endpoint_id: endpointId, status: 'failed' })).messages).toHaveLength(1);
    // Recover re-delivers it; the receiver answers 200 again.
    const recovered = await c.webhooks.recover(endpointId, { since: '2026-01-05T08:00:00Z' });
    expect(recovered).toMatchObject({ recovered: 1, attempts: [{ msg_id: msgId, trigger: 'manual', status: 'success' }] });
    expect((await c.webhooks.message(msgId)).attempts.map((a) => [a.trigger, a.status])).toEqual([
      ['scheduled', 'success'],
      ['manual', 'failed'],
      ['manual', 'success'],
    ]);
    expect((await c.webhookAttempts({ endpoint_id: endpointId })).attempts).toHaveLength(3);
    expect((await c.webhooks.attempts({ endpoint_id: endpointId, trigger: 'manual', status: 'failed' })).attempts.map((a) => a.id)).toEqual(
      [resent.attempt?.id],
    );
    expect((await hook.deliveries()).map((d) => [d.answered_status, d.verified])).toEqual([
      [200, true],
      [429, true],
      [200, true],
    ]);
    expect((await hook.deliveries(first[0]?.seq)).map((d) => d.answered_status)).toEqual([429, 200]);

    // Settings: jitter on (a reset turns it off again).
    expect(await c.webhooks.settings()).toEqual({ jitter: false, retention: 5000, evicted: 0 });
    expect(await c.webhooks.updateSettings({ jitter: true, retention: 100 })).toEqual({ jitter: true, retention: 100, evicted: 0 });

    // A receiver asking to be disabled: the endpoint is disabled, an operational event says so.
    expect((await c.webhooks.operationalEvents({ endpoint_id: endpointId })).events).toEqual([]);
    await hook.answer({ status: 410, headers: { 'webhook-delivery': 'disable' } });
    await c.webhooks.resend(msgId, endpointId);
    expect((await c.webhooks.operationalEvents({ endpoint_id: endpointId, type: 'endpoint.disabled' })).events).toHaveLength(1);
    expect((await c.webhooks.endpoints()).endpoints.find((e) => e.id === endpointId)?.disabled).toBe(true);

    await hook.clear();
    const cleared = await hook.state();
    expect(cleared).toMatchObject({ name: 'ctl-hook', count: 0, deliveries: [], config: { status: 200 } });
  });
});

describe('with an admin token', () => {
  it('both clients send it; without it every call rejects with a ControlError 401', async () => {
    const guarded = await startSandbox({ world: 'empty', feed: 'off', adminToken: ADMIN });
    try {
      expect((await guarded.clock()).mode).toBe('manual');
      expect((await connectSandbox(guarded.url, { adminToken: ADMIN }).labs.scenarios()).zip_hints.length).toBeGreaterThan(0);
      const anonymous = connectSandbox(guarded.url);
      await expect(anonymous.credentials()).rejects.toMatchObject({ name: 'ControlError', status: 401 });
      await expect(anonymous.webhooks.settings()).rejects.toMatchObject({ status: 401 });
      await expect(anonymous.receiver('any').deliveries()).rejects.toMatchObject({ status: 401 });
    } finally {
      await guarded.close();
    }
  });
});
