/** The wearables area's world seed, registered from src/state (the fixture module builds it). */
export { seedWearables } from '../../fixtures/wearables/wearables-world.js';
