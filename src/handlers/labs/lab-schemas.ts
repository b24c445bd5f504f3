/** Schemas the lab route files share (compiled once at import). */
import { z } from 'zod';

export const METHOD = z.enum(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']);
/** The `Labs` enum of the reference. */
export const LAB_SLUG = z.enum([
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
]);
