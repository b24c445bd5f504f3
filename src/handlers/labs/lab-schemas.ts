/** Schemas the lab route files share (compiled once at import). */
import { z } from 'zod';
import { LABS } from '../../state/management/provider-enums.js';
import { lazySchema } from '../../engine/lazy-schema.js';

export const METHOD = lazySchema(() => z.enum(['testkit', 'walk_in_test', 'at_home_phlebotomy', 'on_site_collection']));
/** The `Labs` enum of the reference. */
export const LAB_SLUG = lazySchema(() => z.enum(LABS));
