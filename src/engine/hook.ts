/** A typed list of callbacks: how one area reacts to another's changes without importing it. */
export class Hook<Args extends unknown[]> {
  private readonly fns: Array<(...args: Args) => void> = [];

  add(fn: (...args: Args) => void): void {
    this.fns.push(fn);
  }

  run(...args: Args): void {
    for (const fn of this.fns) fn(...args);
  }
}
