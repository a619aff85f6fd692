import type { SemVerChange } from './model.js';

/** A computed semantic version: DataHub starts every timeline at 0.0.0 and bumps per transaction. */
export interface SemanticVersion {
  major: number;
  minor: number;
  patch: number;
}

/**
 * The version of the next group of changes: the first is 0.0.0 whatever it holds; then MAJOR,
 * MINOR and PATCH bump their part (resetting the lower ones), and NONE or EXCEPTIONAL keep it.
 */
export function nextVersion(previous: SemanticVersion | undefined, change: SemVerChange): SemanticVersion {
  if (!previous) return { major: 0, minor: 0, patch: 0 };
  if (change === 'MAJOR') return { major: previous.major + 1, minor: 0, patch: 0 };
  if (change === 'MINOR') return { major: previous.major, minor: previous.minor + 1, patch: 0 };
  if (change === 'PATCH') return { ...previous, patch: previous.patch + 1 };
  return previous;
}

/** As DataHub writes it: `1.2.0-computed`. */
export function formatVersion({ major, minor, patch }: SemanticVersion): string {
  return `${major}.${minor}.${patch}-computed`;
}
