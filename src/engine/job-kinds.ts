/**
 * Job kinds of a world (engine/scheduler.ts): `jobKind(name, run)` registers what a job of that
 * kind does with the world it belongs to, its arguments (data: saved with the world's state) and
 * the job itself. Kept apart from the scheduler, which engine/world.ts imports.
 */
import { type Job, type JobKind, registerJobKind } from './scheduler.js';
import type { World } from './world.js';

/** What a job of one kind does when due. */
export type JobRun<A> = (world: World, args: A, job: Job) => void | Promise<void>;

/** Registers a kind of job (once per name, at module load). */
export function jobKind<A>(name: string, run: JobRun<A>): JobKind<A, World> {
  return registerJobKind<A, World>({ name, run });
}
