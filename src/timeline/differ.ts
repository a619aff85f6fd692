import type { ChangeCategory, ChangeEvent } from './model.js';

/** What turns two values of one aspect into change events (DataHub's change event generators). */
export interface AspectDiffer {
  readonly aspect: string;
  /** The categories this aspect's changes are part of. */
  readonly categories: readonly ChangeCategory[];
  /**
   * One category's events from one value of the aspect to the next; `previous` is undefined for
   * the first value. Never asked for a category the differ does not name.
   */
  events(previous: unknown, current: unknown, category: ChangeCategory, entityUrn: string): ChangeEvent[];
}
