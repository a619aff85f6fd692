/** Roles of access tokens, and what each may do. */
export type Role = 'admin' | 'editor' | 'viewer';
export const ROLES: readonly Role[] = ['admin', 'editor', 'viewer'];

/** What a route needs: reading, writing, or managing tokens. */
export type Permission = 'read' | 'write' | 'admin';

const GRANTS: Record<Role, readonly Permission[]> = {
  admin: ['read', 'write', 'admin'],
  editor: ['read', 'write'],
  viewer: ['read'],
};

export function can(role: Role, permission: Permission): boolean {
  return GRANTS[role].includes(permission);
}

/** Who is acting: the token's actor and role. */
export interface Principal {
  actor: string;
  role: Role;
  tokenId?: string;
}
