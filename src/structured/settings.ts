import { ValidationError } from '../errors.js';
import type { AspectPlugin } from '../ingest/plugins.js';
import type { PropertySettings } from './model.js';

const DISPLAY_FLAGS = ['showInSearchFilters', 'showInAssetSummary', 'showAsAssetBadge', 'showInColumnsTable'] as const;

/** `structuredPropertySettings`: hidden excludes display, and one badge property in the catalog. */
export const settingsRules: AspectPlugin = {
  // The badge rule looks at every property's settings, so settings writes take turns.
  exclusive: true,
  async validate(change, context) {
    if (change.value === undefined) return [];
    const urn = change.urn.text;
    const settings = change.value as PropertySettings;
    if (settings.isHidden && DISPLAY_FLAGS.some((flag) => settings[flag])) {
      return [new ValidationError(`Cannot have property isHidden = true while other display location settings are also true: ${urn}`)];
    }
    if (!settings.showAsAssetBadge) return [];
    const others: string[] = [];
    for await (const { urn: other, value } of context.scan('structuredPropertySettings')) {
      if (other !== urn && (value as PropertySettings).showAsAssetBadge) others.push(other);
    }
    return others.length === 0
      ? []
      : [new ValidationError(`Cannot have more than one property set with show as badge. Property urns currently set: [${others.join(', ')}]`)];
  },
};
