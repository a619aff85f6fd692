import type { FormInfo } from './model.js';

/** Reads one aspect's latest value (the write path's lookups, or the read path). */
export type AspectLookup = (urn: string, aspect: string) => Promise<unknown>;

/** The groups a person is in, as their membership aspects say. */
export async function groupsOf(get: AspectLookup, person: string): Promise<string[]> {
  const lists = await Promise.all(['groupMembership', 'nativeGroupMembership'].map(async (a) => ((await get(person, a)) as { groups?: string[] } | undefined)?.groups ?? []));
  return lists.flat();
}

/**
 * Whether a person is asked to fill the form in on the asset: named in its actors, in a group
 * named there, or (actors.owners, the default) an owner of the asset, directly or by a group.
 */
export async function isActor(get: AspectLookup, info: FormInfo, asset: string, person: string): Promise<boolean> {
  const actors = info.actors ?? { owners: true };
  if (actors.users?.includes(person)) return true;
  const groups = await groupsOf(get, person);
  if (actors.groups?.some((g) => groups.includes(g))) return true;
  if (actors.owners === false) return false;
  const owners = ((await get(asset, 'ownership')) as { owners?: { owner: string }[] } | undefined)?.owners ?? [];
  return owners.some((o) => o.owner === person || groups.includes(o.owner));
}
