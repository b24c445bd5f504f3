/**
 * Data-side team read, `GET /v2/team/{team_id}` (team API key; data OpenAPI and SDK
 * `ClientFacingTeam`, deprecated in the reference but still served). Shows the calling team's
 * settings for the key's environment, the same values the management view shows.
 *
 * LIMITATIONS
 * - Only the caller's own team: another team id answers 403 JSON.
 * - Legacy fields (`client_id`, `client_secret`, `airtable_*`, `webhook_secret`, `api_key`,
 *   `svix_app_id`) are null; `delegated_flow` is always `order_and_results_with_vital_physician_network`;
 *   `configuration.libreview.practice_id` is empty.
 * - `/v2/team/link/config`, `/v2/team/users/search`, `/v2/team/svix/url`,
 *   `/v2/team/source/priorities` and `/v2/team/{team_id}/physicians` are not simulated (404).
 */
import { z } from 'zod';
import { forbidden } from '../../engine/errors.js';
import { json } from '../../engine/http-types.js';
import { defineRoute } from '../../engine/route.js';
import { uuid } from '../../engine/schemas.js';

export const TEAM_MESSAGES = {
  otherTeam: 'This API key belongs to another team: a team API key can only read its own team.',
} as const;

export const teamRoutes = [
  defineRoute({
    id: 'team.get',
    method: 'GET',
    path: '/v2/team/:team_id',
    auth: 'team',
    summary: 'The calling team (ClientFacingTeam) with its settings for the key\'s environment.',
    request: { params: z.object({ team_id: uuid() }) },
    responses: { 200: 'ClientFacingTeam', 403: 'Another team' },
    handle(ctx, { params }) {
      const { team, environment } = ctx.partition;
      if (params.team_id !== team.id) throw forbidden(TEAM_MESSAGES.otherTeam);
      const s = team.settings[environment];
      const keys = ctx.world.tenancy.teamApiKeys(team.id, environment);
      return json({
        id: team.id,
        org_id: team.org_id,
        name: team.name,
        svix_app_id: null,
        client_id: null,
        client_secret: null,
        airtable_api_key: null,
        airtable_base_id: null,
        webhook_secret: null,
        api_key: null,
        api_keys: keys.map((k) => ({ label: k.label, value: k.value, team_id: k.team_id, id: k.id, created_at: k.created_at, deleted_at: null })),
        configuration: {
          libreview: { practice_id: {} },
          texts_enabled: s.lab_tests_patient_sms_communication_enabled,
          push_historical_data: true,
          provider_raw_data: false,
          reject_duplicate_connection: s.reject_duplicate_connection,
          sdk_per_device_activity_timeseries: s.sdk_per_device_activity_timeseries,
          partial_webhooks_enabled: s.partial_webhooks_enabled,
          minor_ordering_enabled: s.minor_ordering_enabled,
          event_type_prefixes: s.event_type_prefixes ? [...s.event_type_prefixes] : null,
        },
        testkits_texts_enabled: s.lab_tests_patient_sms_communication_enabled,
        lab_tests_patient_communication_enabled: s.lab_tests_patient_sms_communication_enabled || s.lab_tests_patient_email_communication_enabled,
        lab_tests_patient_sms_communication_enabled: s.lab_tests_patient_sms_communication_enabled,
        lab_tests_patient_email_communication_enabled: s.lab_tests_patient_email_communication_enabled,
        logo_url: s.logo_url,
        delegated_flow: 'order_and_results_with_vital_physician_network',
        critical_result_notification_email: s.critical_result_notification_email,
      });
    },
  }),
];
