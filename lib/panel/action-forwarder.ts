type Action = (...args: never[]) => unknown;
export type Actions<T> = { [K in keyof T]: Action };

/**
 * One object of functions that never changes, each calling the newest version of itself: whoever holds it never
 * needs a new one when an action changes, and an action never runs with what an older version saw.
 */
export class ActionForwarder<T extends Actions<T>> {
  readonly actions: T;
  private newest: T;

  constructor(initial: T) {
    this.newest = initial;
    const forward =
      (name: keyof T) =>
      (...args: never[]) =>
        (this.newest[name] as Action)(...args);
    this.actions = Object.fromEntries((Object.keys(initial) as (keyof T)[]).map((name) => [name, forward(name)])) as T;
  }

  update(actions: T): void {
    this.newest = actions;
  }
}
