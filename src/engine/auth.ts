/**
 * Authentication (spec section 5): team API keys (or management-minted access tokens) on data routes, management keys on
 * management routes, the control-plane access rule on `/_sandbox/*`. Header names are
 * case-insensitive (adapters lower-case them); the official SDK's aliases are accepted.
 */
import { controlCookieAccepted, isSignIn } from './control-cookie.js';
import { ApiError, unauthorized } from './errors.js';
import type { SimRequest } from './http-types.js';
import type { ManagementPrincipal } from './route.js';
import type { Partition } from './tenancy.js';
import type { World } from './world.js';

const API_KEY_HEADERS = ['x-service-api-key', 'x-vital-api-key'] as const;
const MANAGEMENT_KEY_HEADERS = ['x-management-key', 'x-service-org-key', 'x-vital-org-key'] as const;

export const AUTH_MESSAGES = {
  missingApiKey: 'Missing x-service-api-key header: data endpoints need a team API key.',
  invalidApiKey: 'Invalid x-service-api-key: no team API key matches.',
  managementKeyOnData: 'A management key cannot be used as a team API key: send a team API key in x-service-api-key.',
  missingManagementKey: 'Missing X-Management-Key header: management endpoints need a management key.',
  invalidManagementKey: 'Invalid X-Management-Key: no management key matches.',
  apiKeyOnManagement: 'Team API keys are not accepted by the management API: send a management key in X-Management-Key.',
  missingControlToken: 'Missing Authorization: Bearer <admin token> for the sandbox control plane.',
  invalidControlToken: 'Invalid admin token for the sandbox control plane.',
} as const;

function firstHeader(req: SimRequest, names: readonly string[]): string | undefined {
  for (const name of names) {
    const v = req.headers[name];
    if (v !== undefined && v !== '') return v;
  }
  return undefined;
}

/** The token of an `Authorization: Bearer <token>` header, if any. */
function bearerToken(req: SimRequest): string | undefined {
  const header = req.headers['authorization'];
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : undefined;
}

/**
 * The caller's team environment: a team API key (`x-vital-api-key` and aliases), else a team
 * API access token minted by the management API's `create_api_access_token`, sent as
 * `Authorization: Bearer <token>`. An unknown, expired or revoked token answers like a bad key.
 */
export function authenticateTeam(world: World, req: SimRequest): Partition {
  const value = firstHeader(req, API_KEY_HEADERS);
  if (value === undefined) {
    const token = bearerToken(req);
    if (token !== undefined) {
      const partition = world.tenancy.accessTokenPartition(token, world.clock.now());
      if (!partition) throw unauthorized(AUTH_MESSAGES.invalidApiKey);
      return partition;
    }
    if (firstHeader(req, MANAGEMENT_KEY_HEADERS) !== undefined) throw unauthorized(AUTH_MESSAGES.managementKeyOnData);
    throw unauthorized(AUTH_MESSAGES.missingApiKey);
  }
  const key = world.tenancy.apiKeysByValue.get(value);
  if (!key) {
    if (world.tenancy.managementKeysBySecret.has(value)) throw unauthorized(AUTH_MESSAGES.managementKeyOnData);
    throw unauthorized(AUTH_MESSAGES.invalidApiKey);
  }
  const team = world.tenancy.teams.get(key.team_id);
  if (!team) throw unauthorized(AUTH_MESSAGES.invalidApiKey);
  return world.tenancy.partition(team, key.environment);
}

export function authenticateManagement(world: World, req: SimRequest): ManagementPrincipal {
  const value = firstHeader(req, MANAGEMENT_KEY_HEADERS);
  if (value === undefined) {
    if (firstHeader(req, API_KEY_HEADERS) !== undefined) throw unauthorized(AUTH_MESSAGES.apiKeyOnManagement);
    throw unauthorized(AUTH_MESSAGES.missingManagementKey);
  }
  const key = world.tenancy.managementKeysBySecret.get(value);
  if (!key) {
    if (world.tenancy.apiKeysByValue.has(value)) throw unauthorized(AUTH_MESSAGES.apiKeyOnManagement);
    throw unauthorized(AUTH_MESSAGES.invalidManagementKey);
  }
  const org = world.tenancy.orgs.get(key.org_id);
  if (!org) throw unauthorized(AUTH_MESSAGES.invalidManagementKey);
  return { org, key };
}

/** The control plane is open unless an admin token is configured (always, off loopback). */
export function authenticateControl(adminToken: string | undefined, req: SimRequest): void {
  if (adminToken === undefined) return;
  // The inspector's sign-in link and cookie (control-cookie.ts).
  if (isSignIn(adminToken, req) || (req.headers['authorization'] === undefined && controlCookieAccepted(adminToken, req))) return;
  const header = req.headers['authorization'];
  if (header === undefined || !/^Bearer\s+/i.test(header)) throw unauthorized(AUTH_MESSAGES.missingControlToken);
  if (header.replace(/^Bearer\s+/i, '') !== adminToken) {
    throw new ApiError(401, { detail: AUTH_MESSAGES.invalidControlToken }, { 'www-authenticate': 'Bearer' });
  }
}
