/** The inspector's views by hash name, and the tabs (name, label) in the order shown. */
import { eventsView } from './views-events.js';
import { ordersView } from './views-orders.js';
import { reportView } from './views-report.js';
import { requestsView } from './views-requests.js';
import { steerView } from './views-steer.js';
import { teamsView } from './views-teams.js';
import { usersView, userView } from './views-users.js';
import { webhooksView } from './views-webhooks.js';
import type { View } from './view.js';

export const TABS: ReadonlyArray<readonly [string, string]> = [
  ['requests', 'Requests'],
  ['teams', 'Teams & keys'],
  ['users', 'Users'],
  ['orders', 'Lab orders'],
  ['webhooks', 'Webhooks'],
  ['events', 'Events'],
  ['faults', 'Faults & snapshots'],
  ['report', 'Report'],
];

export const VIEWS: Record<string, View> = {
  requests: requestsView,
  teams: teamsView,
  users: usersView,
  user: userView,
  orders: ordersView,
  webhooks: webhooksView,
  events: eventsView,
  faults: steerView,
  report: reportView,
};

/** The tab a view belongs to (`user` is under Users). */
export function tabOf(name: string): string {
  return name === 'user' ? 'users' : VIEWS[name] ? name : 'requests';
}
