import type { AspectDiffer } from '../differ.js';
import { changeEvent, type ChangeEvent } from '../model.js';
import { mergeByKey, records, text, urnId } from '../values.js';

interface Owner {
  owner: string;
  type?: string;
  typeUrn?: string;
}

function ownersOf(ownership: unknown): Owner[] {
  return records(ownership, 'owners').flatMap((o) => {
    const owner = text(o, 'owner');
    return owner === undefined ? [] : [{ owner, type: text(o, 'type'), typeUrn: text(o, 'typeUrn') }];
  });
}

function parameters(owner: Owner): Record<string, unknown> {
  return { ownerUrn: owner.owner, ownerType: owner.type, ...(owner.typeUrn !== undefined ? { ownerTypeUrn: owner.typeUrn } : {}) };
}

/**
 * Owners added and removed (MINOR), in owner URN order, and an owner whose ownership type
 * changed (PATCH; DataHub's modifier is then the new type, not the owner).
 */
export const ownershipDiffer: AspectDiffer = {
  aspect: 'ownership',
  categories: ['OWNER'],
  events(previous, current, _category, entityUrn): ChangeEvent[] {
    return mergeByKey(ownersOf(previous), ownersOf(current), (o) => o.owner).flatMap(({ base, target }) => {
      if (base && target) {
        if (base.type === target.type) return [];
        return [
          changeEvent({
            entityUrn,
            category: 'OWNER',
            operation: 'MODIFY',
            modifier: target.type,
            parameters: parameters(target),
            semVerChange: 'PATCH',
            description: `The ownership type of '${urnId(target.owner)}' on '${entityUrn}' changed from ${base.type} to ${target.type}.`,
          }),
        ];
      }
      const owner = (target ?? base)!;
      const added = target !== undefined;
      return [
        changeEvent({
          entityUrn,
          category: 'OWNER',
          operation: added ? 'ADD' : 'REMOVE',
          modifier: owner.owner,
          parameters: parameters(owner),
          semVerChange: 'MINOR',
          description: `'${urnId(owner.owner)}' was ${added ? 'added as' : 'removed as'} an owner (${owner.type}) of '${entityUrn}'.`,
        }),
      ];
    });
  },
};
