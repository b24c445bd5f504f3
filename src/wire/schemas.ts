/** Every wire schema, for route entries: `import { User, res } from '../../wire/schemas.js'`. */
export * from './common.js';
export * from './users.js';
export * from './wearables.js';
export * from './labs.js';
export * from './events.js';
export * from './webhooks.js';
export * from './management.js';
export * from './link.js';
export * from './sandbox.js';
export * from './labs-ops.js';
export * from './aggregate.js';
