/** The users area's world seed, registered from src/state (the fixture module builds it). */
export { seedAllUsers } from '../../fixtures/users/world-users.js';
