import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent } from '../model.js';
import { strings } from '../values.js';

function domainEvent(operation: 'ADD' | 'REMOVE', domain: string, entityUrn: string): ChangeEvent {
  return changeEvent({
    entityUrn,
    category: 'DOMAIN',
    operation,
    modifier: domain,
    parameters: { domainUrn: domain },
    // DataHub's domain events carry no semantic change; a timeline needs one: an association is MINOR, as tags are.
    semVerChange: 'MINOR',
    description: operation === 'ADD' ? `'${entityUrn}' was put in the domain '${domain}'.` : `'${entityUrn}' was taken out of the domain '${domain}'.`,
  });
}

/**
 * An entity's domain, as DataHub compares it: only the first of the list counts (an entity has
 * one domain). Set: ADD; unset: REMOVE; changed: REMOVE of the old, then ADD of the new.
 */
export const domainsDiffer: AspectDiffer = {
  aspect: 'domains',
  categories: ['DOMAIN'],
  events(previous, current, _category, entityUrn) {
    const was = strings(previous, 'domains')[0];
    const now = strings(current, 'domains')[0];
    if (was === now) return [];
    if (was === undefined) return [domainEvent('ADD', now!, entityUrn)];
    if (now === undefined) return [domainEvent('REMOVE', was, entityUrn)];
    return [domainEvent('REMOVE', was, entityUrn), domainEvent('ADD', now, entityUrn)];
  },
};
