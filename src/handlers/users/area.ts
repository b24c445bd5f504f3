/**
 * The users area: users (create, list, get, resolve, patch, delete, undo), demographics and
 * insurance, metrics, refresh, devices, sign-in tokens and portal links. `install` drops a
 * purged user's demographics, insurances and refresh window.
 */
import type { Area } from '../../engine/area.js';
import { seedAllUsers } from '../../state/users/seed.js';
import { dropUserActivity } from '../../state/users/activity.js';
import { forgetDemoExpiry, scheduleDemoExpiry } from '../../state/users/demo-expiry.js';
import { profilesOf } from '../../state/users/profile.js';
import { activityRoutes } from './activity.js';
import { profileRoutes } from './profile.js';
import { userRoutes } from './users.js';

export const usersArea: Area = {
  name: 'users',
  routes: [...userRoutes, ...profileRoutes, ...activityRoutes],
  install(world) {
    world.hooks.expireUserAt = (partition, userId, at) => scheduleDemoExpiry({ world, partition }, userId, at);
    world.hooks.userPurged.add((partition, userId) => {
      forgetDemoExpiry({ world, partition }, userId);
      profilesOf(partition, world).drop(userId);
      dropUserActivity({ world, partition }, userId);
    });
  },
  seed: seedAllUsers,
};
