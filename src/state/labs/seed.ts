/** The labs area's world seed, registered from src/state (the fixture module builds it). */
export { seedLabWorld } from '../../fixtures/labs/lab-world.js';
