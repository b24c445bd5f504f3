/**
 * The answer types of the control client: each is `z.output` of the zod schema the control
 * route declares for its 200 answer (`src/wire/`), so the client's types and the control plane's
 * answers cannot drift apart (test/testkit/testkit-controls.test.ts checks that each schema is the one
 * its route declares). Type-only: importing them pulls in no code.
 */
import type { z } from 'zod';
import type * as W from '../wire/schemas.js';
import type * as R from '../wire/certify-report.js';

type Of<T extends z.ZodType> = z.output<T>;

/** `GET /_sandbox/clock`. */
export type ClockView = Of<typeof W.ClockState>;
/** `POST /_sandbox/clock/advance`: the clock, what the advance caused and who makes the wearable feed run. */
export type AdvanceDone = Of<typeof W.AdvanceDone>;
/** `GET /_sandbox/credentials`. */
export type Credentials = Of<typeof W.SandboxCredentials>;
/** `POST /_sandbox/reset`. */
export type ResetDone = Of<typeof W.ResetDone>;
/** `PUT|DELETE /_sandbox/scenario`. */
export type ScenarioLoaded = Of<typeof W.ScenarioLoaded>;
/** `POST /_sandbox/snapshots`, each of `GET /_sandbox/snapshots`. */
export type SnapshotInfo = Of<typeof W.SnapshotInfo>;
/** `POST /_sandbox/snapshots/{name}/restore`, `PUT /_sandbox/world`. */
export type WorldRestored = Of<typeof W.WorldRestored>;
/** `GET /_sandbox/world`: the whole world as one document (give it to `importWorld` or `createSandbox({ from })`). */
export type WorldDocument = Of<typeof W.WorldDocument>;
/** One entry of `GET /_sandbox/events`. */
export type JournalEntry = Of<typeof W.JournalEntry>;
/** `GET /_sandbox/jobs`. */
export type JobList = Of<typeof W.JobList>;
/** One entry of `GET /_sandbox/requests` (the request journal). */
export type RequestEntry = Of<typeof W.RequestEntry>;
/** `GET /_sandbox/requests`. */
export type RequestPage = Of<typeof W.RequestPage>;
/** `GET /_sandbox/routes`. */
export type RouteListing = Of<typeof W.RouteListing>;

/** `GET|POST /_sandbox/wearables/feed`. */
export type FeedState = Of<typeof W.FeedState>;
/** `GET|POST /_sandbox/wearables/health-sdk`. */
export type HealthSdkSettings = Of<typeof W.HealthSdkSettings>;
/** `POST /_sandbox/connections/:user_id/:provider/error|reconnect`. */
export type Connection = Of<typeof W.Connection>;
/** `POST /_sandbox/historical_pulls/:user_id/:provider`. */
export type HistoricalPullForced = Of<typeof W.HistoricalPullForced>;

/** `GET /_sandbox/labs/lifecycle`. */
export type LabLifecycle = Of<typeof W.LabLifecycle>;
/** `GET|PUT /_sandbox/teams/:team_id/labs`. */
export type TeamLabsSettings = Of<typeof W.TeamLabsSettings>;
/** `GET /_sandbox/labs/scenarios`. */
export type LabScenarios = Of<typeof W.LabScenarios>;

/** `GET /_sandbox/webhooks/endpoints`. */
export type ControlEndpointList = Of<typeof W.ControlEndpointList>;
/** One endpoint of `GET /_sandbox/webhooks/endpoints`. */
export type ControlEndpoint = ControlEndpointList['endpoints'][number];
/** `GET /_sandbox/webhooks/messages`. */
export type DeliveryMessagePage = Of<typeof W.DeliveryMessagePage>;
export type DeliveryMessage = Of<typeof W.DeliveryMessage>;
/** `GET /_sandbox/webhooks/messages/:msg_id`. */
export type DeliveryMessageDetail = Of<typeof W.DeliveryMessageDetail>;
/** `GET /_sandbox/webhooks/attempts`. */
export type DeliveryAttemptPage = Of<typeof W.DeliveryAttemptPage>;
export type DeliveryAttempt = Of<typeof W.DeliveryAttempt>;
/** `POST /_sandbox/webhooks/messages/:msg_id/endpoints/:endpoint_id/resend`. */
export type ResendDone = Of<typeof W.ResendDone>;
/** `POST /_sandbox/webhooks/endpoints/:endpoint_id/recover`. */
export type RecoverDone = Of<typeof W.RecoverDone>;
/** `GET|PUT /_sandbox/webhooks/settings`. */
export type DeliverySettings = Of<typeof W.DeliverySettings>;
/** `GET /_sandbox/webhooks/operational-events`. */
export type OperationalEvents = Of<typeof W.OperationalEvents>;

/** `GET /_sandbox/receiver/:name`. */
export type ReceiverState = Of<typeof W.ReceiverState>;
/** One delivery a test receiver got, with whether its signature verified. */
export type ReceiverDelivery = Of<typeof W.ReceiverDelivery>;
/** `PUT /_sandbox/receiver/:name`. */
export type ReceiverConfigured = Of<typeof W.ReceiverConfigured>;

/** `GET /_sandbox/health`. */
export type Health = Of<typeof W.Health>;
/** `GET /_sandbox/openapi.json`. */
export type OpenApiDocument = Of<typeof W.OpenApiDocument>;

/** `GET /_sandbox/orgs/:org_id`, `PUT .../plan`; one of `GET /_sandbox/orgs`. */
export type SandboxOrg = Of<typeof W.SandboxOrg>;
/** `GET /_sandbox/orgs`. */
export type SandboxOrgList = Of<typeof W.SandboxOrgList>;
/** `POST /_sandbox/orgs`. */
export type SandboxOrgCreated = Of<typeof W.SandboxOrgCreated>;
/** `GET|PUT /_sandbox/teams/:team_id/beta_features`. */
export type BetaFeatures = Of<typeof W.BetaFeatures>;
/** `POST /_sandbox/orgs/:org_id/invites/:invite_id/accept`. */
export type OrgMember = Of<typeof W.Member>;
/** `GET /_sandbox/orgs/:org_id/mail`. */
export type OrgMail = Of<typeof W.OrgMail>;
/** `GET /_sandbox/ehr_dashboard/:token`. */
export type EhrDashboardSession = Of<typeof W.EhrDashboardSession>;
/** `GET /_sandbox/ehr_pipelines/:team_id/:environment`. */
export type EhrDeliveries = Of<typeof W.EhrDeliveries>;

/** `GET /_sandbox/pipelines/streams`. */
export type PipelineStreams = Of<typeof W.PipelineStreams>;
/** `GET /_sandbox/pipelines/streams/:stream`. */
export type PipelineStreamRecords = Of<typeof W.PipelineStreamRecords>;
/** `DELETE /_sandbox/pipelines/streams/:stream`. */
export type PipelineStreamCleared = Of<typeof W.PipelineStreamCleared>;
/** `DELETE /_sandbox/pipelines/streams`. */
export type PipelineStreamsCleared = Of<typeof W.PipelineStreamsCleared>;
/** `PUT /_sandbox/pipelines/ndjson`. */
export type PipelineNdjson = Of<typeof W.PipelineNdjson>;

/** One rule of `/_sandbox/faults` (`POST` answer, `DELETE /:id` answer). */
export type FaultRule = Of<typeof W.FaultRuleView>;
/** `GET /_sandbox/faults`. */
export type FaultList = Of<typeof W.FaultList>;
/** `DELETE /_sandbox/faults`. */
export type FaultsCleared = Of<typeof W.FaultsCleared>;
/** `POST /_sandbox/orders/:order_id/fault`. */
export type LabFaultApplied = Of<typeof W.LabFaultApplied>;
/** `POST /_sandbox/providers/:provider/outage`. */
export type ProviderOutage = Of<typeof W.ProviderOutage>;

/** `GET /_sandbox/report`: what the client's code exercised since the last reset (docs/testing.md). */
export type IntegrationReport = z.output<typeof R.IntegrationReport>;
/** `POST /_sandbox/receivers/certify`: each check of the receiver with what was sent and received. */
export type CertifyResult = z.output<typeof R.CertifyResultView>;
