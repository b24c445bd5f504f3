/**
 * The checks on a lab order's patient that zod cannot express because they need sandbox time
 * or team settings (api-facts B.2): date of birth, minors, fictional phone numbers, the
 * activation date. They change nothing.
 */
import type { Partition } from '../../engine/tenancy.js';
import { STATE_CODES } from '../../fixtures/labs/lab-geo.js';
import { LABS_ERRORS, labsError } from './errors.js';

/** What the checks need of the patient's details. */
interface PatientCheckInput {
  dob: string;
  phone_number: string;
  medical_proxy?: unknown;
}

/** Digits of a phone number when it is a plausible one (E.164 or a 10-digit US number). */
export function phoneDigits(value: string): string | null {
  const trimmed = value.trim();
  if (!/^\+?[\d\s().-]+$/.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return digits.length >= 8 && digits.length <= 15 ? digits : null;
  if (digits.length === 10) return `1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return digits;
  return null;
}

const today = (nowMs: number) => new Date(nowMs).toISOString().slice(0, 10);

/** Whole years between a date of birth and a moment. */
export function ageAt(dob: string, atMs: number): number {
  const now = new Date(atMs);
  const [y, m, d] = dob.split('-').map(Number) as [number, number, number];
  let age = now.getUTCFullYear() - y;
  if (now.getUTCMonth() + 1 < m || (now.getUTCMonth() + 1 === m && now.getUTCDate() < d)) age--;
  return age;
}

/** The checks on patient details that need sandbox time and team settings. */
export function checkPatient(details: PatientCheckInput, partition: Partition, nowMs: number, where: Array<string | number>): void {
  if (details.dob > today(nowMs)) throw labsError.invalid([...where, 'dob'], LABS_ERRORS.dobInFuture, details.dob);
  if (ageAt(details.dob, nowMs) < 18) {
    if (!partition.team.settings[partition.environment].minor_ordering_enabled) throw labsError.badRequest(LABS_ERRORS.minorsDisabled);
    if (!details.medical_proxy) throw labsError.invalid([...where, 'medical_proxy'], LABS_ERRORS.minorNeedsProxy);
  }
  checkRealPhone(details.phone_number);
}

/** Fictional (555) US numbers are refused, as by the reference. */
export function checkRealPhone(value: string): void {
  const digits = phoneDigits(value);
  if (digits !== null && digits.length === 11 && digits.startsWith('1555')) throw labsError.badRequest(LABS_ERRORS.fictionalPhone);
}

export function checkActivateBy(value: string | null | undefined, nowMs: number, where: Array<string | number>): void {
  if (value && value < today(nowMs)) throw labsError.invalid(where, LABS_ERRORS.activateByNotFuture, value);
}

/** Whether `v` is a US state or territory code the labs accept (`NY`, `PR`, ...). */
export function isStateCode(v: string): boolean {
  return /^[A-Z]{2}$/.test(v) && STATE_CODES.has(v);
}
