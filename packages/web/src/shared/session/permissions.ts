/** The signed-in user as `GET user` answers it. */
export interface CurrentUser {
  id: string;
  username: string;
  email: string | null;
  firstname: string | null;
  lastname: string | null;
  displayName: string;
  source: string;
  roles: { scope: string; name: string; permissions: Record<string, string[]> }[];
  /** Lowercase `scope-permission-right`: `management-api-c`, `portal-settings-r`. */
  permissions: string[];
  hasPicture?: boolean;
  updated_at?: number;
}

export function hasPermission(user: CurrentUser | null | undefined, permission: string): boolean {
  return !!user && user.permissions.includes(permission.toLowerCase());
}

export function hasAnyPermission(
  user: CurrentUser | null | undefined,
  permissions: readonly string[],
): boolean {
  return permissions.length === 0 || permissions.some((p) => hasPermission(user, p));
}

/** An administrator holds a permission starting with management-instance or management-platform. */
export function isAdmin(user: CurrentUser | null | undefined): boolean {
  return (
    !!user &&
    user.permissions.some((p) => p.startsWith('management-instance') || p.startsWith('management-platform'))
  );
}
