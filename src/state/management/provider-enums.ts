/**
 * The reference's provider enums (data and management OpenAPI `Providers`, `Labs`, `OAuthProviders`,
 * `LabsProviders`, `AppointmentProvider`), written once, in the reference's order: every request
 * schema, check and fixture that takes one of them reads it here, so the OpenAPI documents and the
 * 422 answers list the values in that order.
 */

/** Wearable providers (`Providers`). */
export const PROVIDERS = [
  'oura',
  'fitbit',
  'garmin',
  'whoop',
  'strava',
  'renpho',
  'peloton',
  'wahoo',
  'zwift',
  'freestyle_libre',
  'abbott_libreview',
  'tandem_source',
  'freestyle_libre_ble',
  'eight_sleep',
  'withings',
  'apple_health_kit',
  'manual',
  'ihealth',
  'google_fit',
  'beurer_api',
  'beurer_ble',
  'omron',
  'omron_ble',
  'onetouch_ble',
  'accuchek_ble',
  'contour_ble',
  'dexcom',
  'dexcom_v3',
  'hammerhead',
  'my_fitness_pal',
  'health_connect',
  'samsung_health',
  'polar',
  'cronometer',
  'kardia',
  'whoop_v2',
  'ultrahuman',
  'my_fitness_pal_v2',
  'map_my_fitness',
  'runkeeper',
  'google_health',
] as const;

/** Labs (`Labs`; accepted where the reference takes `Providers | Labs`). */
export const LABS = [
  'ayumetrix',
  'spiriplex',
  'ussl',
  'quest',
  'sonora_quest',
  'labcorp',
  'bioreference',
  'us_biotek',
  'manual',
  'sanocardio',
  'ihd',
  'nexus',
  'my_uti',
  'crl',
  'mtl',
] as const;

/** Providers that connect through OAuth (`OAuthProviders`). */
export const OAUTH_PROVIDERS = [
  'oura',
  'fitbit',
  'garmin',
  'strava',
  'wahoo',
  'ihealth',
  'withings',
  'google_fit',
  'dexcom_v3',
  'polar',
  'cronometer',
  'omron',
  'whoop_v2',
  'my_fitness_pal_v2',
  'ultrahuman',
  'runkeeper',
  'google_health',
] as const;

/** Lab service providers (`LabsProviders`). */
export const LAB_SERVICE_PROVIDERS = ['aftership', 'shippo', 'sanocardio', 'supera', 'twilio', 'telnyx', 'mtl'] as const;

/** Appointment providers (`AppointmentProvider`). */
export const APPOINTMENT_PROVIDERS = ['getlabs', 'phlebfinders', 'quest', 'sonora_quest'] as const;
