/** A view draws one tab (or one item of it) from the hash's parts and the sandbox clock. */
import type { Clock } from './types.js';

export type View = (parts: string[], clock: Clock) => Promise<Node>;
