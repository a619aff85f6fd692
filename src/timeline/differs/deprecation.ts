import type { AspectDiffer } from '../differ.js';
import { changeEvent } from '../model.js';
import { field } from '../values.js';

/**
 * Deprecated or no longer deprecated: one MODIFY with DataHub's `status` parameter (DEPRECATED or
 * ACTIVE). A changed note or decommission time of a deprecated entity is no event, as in DataHub.
 */
export const deprecationDiffer: AspectDiffer = {
  aspect: 'deprecation',
  categories: ['DEPRECATION'],
  events(previous, current, _category, entityUrn) {
    const was = field(previous, 'deprecated') === true;
    const now = field(current, 'deprecated') === true;
    if (was === now) return [];
    return [
      changeEvent({
        entityUrn,
        category: 'DEPRECATION',
        operation: 'MODIFY',
        parameters: { status: now ? 'DEPRECATED' : 'ACTIVE' },
        // DataHub's deprecation events carry no semantic change; deprecating is a notice to users, MINOR.
        semVerChange: 'MINOR',
        description: now ? `'${entityUrn}' was deprecated.` : `'${entityUrn}' is no longer deprecated.`,
      }),
    ];
  },
};
