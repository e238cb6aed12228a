/**
 * An ordered list things are registered in once each: the trace formats the readers are chosen
 * from (recording/trace-formats.ts) and the event consumers every trace analysis runs
 * (recording/trace-consumers.ts). The first `fixed` entries are built in and cannot be removed.
 */
export class Registry<T> {
  private readonly items: T[];

  constructor(
    builtIn: readonly T[] = [],
    private readonly fixed = builtIn.length,
  ) {
    this.items = [...builtIn];
  }

  /** Everything registered, in registration order. */
  list(): readonly T[] {
    return this.items;
  }

  /** Adds `item` at the end (once: an item already there is not added again). */
  register(item: T): void {
    if (!this.items.includes(item)) this.items.push(item);
  }

  /** Removes an item added with register (tests); a built-in one stays. */
  unregister(item: T): void {
    const i = this.items.indexOf(item);
    if (i >= this.fixed) this.items.splice(i, 1);
  }
}
