import { ValidationError } from '../errors.js';
import { LIMITS } from '../limits.js';
import type { Reader } from '../read/read.js';
import { parseCategories } from './categories.js';
import { DIFFERS } from './differs/index.js';
import type { ChangeTransaction } from './model.js';
import { computeTimeline } from './transactions.js';

/** DataHub's default window when no start is given: the week before its end. */
const DEFAULT_LOOKBACK_MS = 7 * 24 * 60 * 60 * 1000;

/** A timeline request as DataHub's timeline routes take it. */
export interface TimelineRequest {
  urn: string;
  /** Repeated or comma-separated category names. */
  categories: readonly string[];
  /** Epoch millis; -1 (the default): a week before the end. */
  startTime?: number;
  /** Epoch millis, exclusive; 0 (the default): now. */
  endTime?: number;
  /** Whether each transaction carries the raw JSON Patch of the aspect change it comes from. */
  raw?: boolean;
}

/**
 * DataHub's timeline API: the semantic history of an entity in the categories asked for, computed
 * from the aspect versions the store keeps. Read through the read path (read-time filters apply to
 * every version). An entity without versions in the window has an empty timeline.
 */
export class Timeline {
  constructor(
    private readonly reader: Reader,
    private readonly now: () => number = Date.now,
  ) {}

  async of(request: TimelineRequest): Promise<ChangeTransaction[]> {
    const categories = parseCategories(request.categories);
    const endTime = request.endTime ?? 0;
    const end = endTime === 0 ? this.now() : endTime;
    const startTime = request.startTime ?? -1;
    const start = startTime === -1 ? end - DEFAULT_LOOKBACK_MS : startTime;
    const limit = LIMITS.timelineVersions;
    const { urn, versions } = await this.reader.history(request.urn, start, limit + 1);
    if (versions.length > limit) {
      throw new ValidationError(
        `The timeline of ${urn} from ${start} would read more than ${limit.toLocaleString('en-US')} aspect versions (limit timelineVersions): ask for a later startTime or an earlier endTime`,
      );
    }
    return computeTimeline(versions, { urn, categories, start, end, raw: request.raw ?? false }, DIFFERS);
  }
}
