/**
 * Match-review webhooks (docs: lab/workflow/unmatched-results "Webhook"; OAS
 * `MatchReviewWebhookPayload`): `labtest.match_review.created` when an unmatched result first
 * becomes available for customer review (the sandbox's test runs "emit the normal
 * labtest.match_review.created and labtest.match_review.updated webhooks"), and
 * `labtest.match_review.updated` when it is accepted, rejected or escalated. The data is a
 * notification (`id`, `status`, `decision_code`, `sub_reason_codes`, and once reviewed
 * `resolution_action`, `resolved_user_id`, `resolved_order_id`), not the review record.
 */
import type { EventData } from '../../wire/events.js';
import { usersOf } from '../users/users.js';
import type { Domain } from '../domain-context.js';
import type { UnmatchedResult } from './unmatched-store.js';

/** The envelope's user: the one the result was matched to, else its first candidate's, else the team's first. */
function reviewUser(env: Domain, item: UnmatchedResult): { user_id: string; client_user_id: string } {
  const users = usersOf(env.partition, env.world);
  const id = item.resolved_user_id ?? item.candidate_groups[0]?.user_id ?? null;
  const user = (id ? users.get(id) : undefined) ?? users.all()[0];
  return { user_id: user?.user_id ?? id ?? '', client_user_id: user?.client_user_id ?? '' };
}

export function emitMatchReview(env: Domain, item: UnmatchedResult, type: 'created' | 'updated'): void {
  const data: EventData<'labtest.match_review.created'> = {
    id: item.id,
    status: item.status,
    decision_code: item.decision_code,
    sub_reason_codes: [...item.sub_reason_codes],
  };
  if (type === 'updated') {
    data.resolution_action = item.resolution_action;
    data.resolved_user_id = item.resolved_user_id;
    data.resolved_order_id = item.resolved_order_id;
  }
  env.world.events.emit(env.partition, {
    event_type: `labtest.match_review.${type}`,
    data,
    team_id: env.partition.team.id,
    ...reviewUser(env, item),
  });
}
