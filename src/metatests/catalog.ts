import { createHash } from 'node:crypto';
import type { Reader } from '../read/read.js';
import type { Registry } from '../registry/registry.js';
import { parseDefinition, type TestDefinition } from './definition.js';

/** The `testInfo` aspect of a `test` entity. */
export interface TestInfo {
  name: string;
  category?: string;
  description?: string;
  definition: { type: 'JSON'; json: string; md5?: string };
  status?: { mode: 'ACTIVE' | 'INACTIVE' };
  schedule?: { interval: 'DAILY' | 'NONE' };
}

export interface LoadedTest {
  urn: string;
  info: TestInfo;
  definition: TestDefinition;
  md5: string;
  /** status.mode is ACTIVE (the default). */
  active: boolean;
  /** schedule.interval is DAILY (the default), not NONE (on demand only). */
  scheduled: boolean;
}

/** MD5 (hex) of a definition's JSON text: stamped on results so stale ones can be told apart. */
export function definitionMd5(json: string): string {
  return createHash('md5').update(json).digest('hex');
}

/**
 * Parsed test definitions, read through the read path and kept until a `testInfo` changes
 * (invalidate()), so evaluation never re-parses JSON on the hot path.
 */
export class TestCatalog {
  private cache?: Promise<Map<string, LoadedTest>>;
  private generation = 0;

  constructor(
    private readonly registry: Registry,
    private readonly reader: Reader,
  ) {}

  all(): Promise<Map<string, LoadedTest>> {
    if (!this.cache) {
      const generation = this.generation;
      const loading = this.load();
      this.cache = loading;
      // A change that lands while loading must not leave the stale result cached.
      loading.then(
        () => generation !== this.generation && this.cache === loading && (this.cache = undefined),
        () => this.cache === loading && (this.cache = undefined),
      );
    }
    return this.cache;
  }

  invalidate(): void {
    this.generation++;
    this.cache = undefined;
  }

  private async load(): Promise<Map<string, LoadedTest>> {
    const tests = new Map<string, LoadedTest>();
    for await (const { urn, value } of this.reader.scan('testInfo')) {
      const info = value as TestInfo;
      try {
        tests.set(urn, {
          urn,
          info,
          definition: parseDefinition(info.definition.json, this.registry),
          md5: definitionMd5(info.definition.json),
          active: (info.status?.mode ?? 'ACTIVE') === 'ACTIVE',
          scheduled: (info.schedule?.interval ?? 'DAILY') === 'DAILY',
        });
      } catch {
        // Written before a rule it now breaks (e.g. an entity type removed from the registry): skipped.
      }
    }
    return tests;
  }
}
