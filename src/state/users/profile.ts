/**
 * A user's demographics (UserInfo) and insurances, per team environment. Demographics are
 * replaced as a whole on each PATCH (the latest wins); insurances are kept in the order
 * added and the latest primary (or non-primary) one is answered. Dropped when the user is purged.
 */
import type { PayorRecord } from '../../fixtures/labs/payors.js';
import { partitionSlot } from '../../engine/world.js';
import type { Insurance, UserInfo } from '../../wire/types.js';
import { payorByCode } from '../labs/payors.js';
import { usersError } from './errors.js';
import type { Domain } from '../domain-context.js';
import { liveUser } from './user-ops.js';
import { dataClass } from '../../engine/world-codec.js';

/** Bound on the insurances kept per user (oldest dropped first). */
const INSURANCES_PER_USER = 20;

/** The fields of UserInfo a `PATCH /v2/user/{id}/info` may leave out (stored as null). */
type OptionalInfo = 'medical_proxy' | 'race' | 'ethnicity' | 'sexual_orientation' | 'gender_identity';

/** `PATCH /v2/user/{id}/info`'s body. */
type InfoInput = Omit<UserInfo, OptionalInfo> & { [K in OptionalInfo]?: UserInfo[K] | undefined };

interface NewInsurance {
  payor_code: string;
  member_id: string;
  group_id?: string | null;
  relationship: string;
  insured: Insurance['insured'];
  guarantor?: Insurance['guarantor'];
  is_primary: boolean;
}

class ProfileStore {
  private readonly info = new Map<string, UserInfo>();
  private readonly insurances = new Map<string, Insurance[]>();

  demographics(userId: string): UserInfo | undefined {
    return this.info.get(userId);
  }

  setDemographics(userId: string, info: UserInfo): void {
    this.info.set(userId, info);
  }

  /** The user's insurances, oldest first (empty when none). */
  insurancesOf(userId: string): Insurance[] {
    return this.insurances.get(userId) ?? [];
  }

  setInsurances(userId: string, list: Insurance[]): void {
    this.insurances.set(userId, list);
  }

  drop(userId: string): void {
    this.info.delete(userId);
    this.insurances.delete(userId);
  }
}
dataClass('ProfileStore', ProfileStore);

export const profilesOf = partitionSlot('user-profiles', () => new ProfileStore());

const profiles = (scope: Domain): ProfileStore => profilesOf(scope.partition, scope.world);

/** `PATCH /v2/user/{id}/info`: records the user's demographics (the latest replace the previous). */
export function setDemographics(scope: Domain, userId: string, info: InfoInput): UserInfo {
  liveUser(scope, userId);
  const stored: UserInfo = {
    ...info,
    address: { ...info.address, second_line: info.address.second_line ?? '', access_notes: info.address.access_notes ?? null },
    medical_proxy: info.medical_proxy ?? null,
    race: info.race ?? null,
    ethnicity: info.ethnicity ?? null,
    sexual_orientation: info.sexual_orientation ?? null,
    gender_identity: info.gender_identity ?? null,
  };
  profiles(scope).setDemographics(userId, stored);
  return stored;
}

/** `GET /v2/user/{id}/info/latest`. */
export function latestDemographics(scope: Domain, userId: string): UserInfo {
  liveUser(scope, userId);
  const info = profiles(scope).demographics(userId);
  if (!info) throw usersError.noDemographics();
  return info;
}

function payor(scope: Domain, code: string): PayorRecord | undefined {
  return payorByCode(scope, code);
}

/** `POST /v2/user/{id}/insurance`: the payor code must be known (platform or the team's own payors). */
export function addInsurance(scope: Domain, userId: string, input: NewInsurance): Insurance {
  liveUser(scope, userId);
  const company = payor(scope, input.payor_code);
  if (!company) throw usersError.unknownPayor(input.payor_code);
  const insurance: Insurance = {
    member_id: input.member_id,
    payor_code: input.payor_code,
    relationship: input.relationship,
    insured: input.insured,
    company: { name: company.name, address: { ...company.org_address, access_notes: null } },
    group_id: input.group_id ?? null,
    guarantor: input.guarantor ?? null,
    is_primary: input.is_primary,
  };
  const store = profiles(scope);
  const list = store.insurancesOf(userId);
  list.push(insurance);
  if (list.length > INSURANCES_PER_USER) list.shift();
  store.setInsurances(userId, list);
  return insurance;
}

/** `GET /v2/user/{id}/insurance/latest`: the latest with this `is_primary` (any when null). */
export function latestInsurance(scope: Domain, userId: string, isPrimary: boolean | null): Insurance {
  liveUser(scope, userId);
  const list = profiles(scope).insurancesOf(userId);
  for (let i = list.length - 1; i >= 0; i--) {
    const ins = list[i] as Insurance;
    if (isPrimary === null || ins.is_primary === isPrimary) return ins;
  }
  throw usersError.noInsurance();
}
