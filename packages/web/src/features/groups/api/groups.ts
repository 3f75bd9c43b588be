import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http } from '../../../shared/http';

export const GROUP_EVENTS = ['API_CREATE', 'APPLICATION_CREATE'] as const;
export type GroupEvent = (typeof GROUP_EVENTS)[number];
/** Group max members: 0 to 99999, empty means unlimited (console-applications-and-settings.md 9). */
export const MAX_MEMBERS = 99999;

export interface GroupEntity {
  id: string;
  name: string;
  roles: { API?: string; APPLICATION?: string };
  event_rules: { event: GroupEvent }[];
  max_invitation: number | null;
  lock_api_role: boolean;
  lock_application_role: boolean;
  system_invitation: boolean;
  email_invitation: boolean;
  manageable: boolean;
}
export type GroupInput = Omit<GroupEntity, 'id' | 'manageable'>;

export interface GroupMember {
  id: string;
  reference: string;
  username: string;
  displayName: string;
  email: string | null;
  roles: { GROUP?: string; API?: string; APPLICATION?: string };
}
export interface MemberInput {
  id: string;
  reference: string;
  roles: { scope: 'GROUP' | 'API' | 'APPLICATION'; name: string }[];
}

export interface Invitation {
  id: string;
  email: string;
  api_role: string | null;
  application_role: string | null;
  created_at: number;
}
export interface InvitationRoles {
  api_role: string | null;
  application_role: string | null;
}

export interface GroupDependent {
  id: string;
  name: string;
  version?: string;
  visibility?: string;
  type?: string;
}
export type DependentType = 'api' | 'application';

export interface ScopeRole {
  name: string;
  default: boolean;
  system: boolean;
}

export const groupKeys = {
  all: ['settings-groups'] as const,
  list: () => [...groupKeys.all, 'list'] as const,
  entity: (id: string) => [...groupKeys.all, id] as const,
  members: (id: string) => [...groupKeys.all, id, 'members'] as const,
  invitations: (id: string) => [...groupKeys.all, id, 'invitations'] as const,
  dependents: (id: string, type: DependentType) => [...groupKeys.all, id, 'dependents', type] as const,
  roles: (scope: string) => [...groupKeys.all, 'roles', scope] as const,
};

const groupPath = (id: string, rest = '') => `configuration/groups/${encodeURIComponent(id)}${rest}`;

/** `GET configuration/groups`: every group, each saying whether the user manages it. */
export const useGroups = () =>
  useQuery({
    queryKey: groupKeys.list(),
    queryFn: ({ signal }) => http.get<GroupEntity[]>('configuration/groups', { signal }),
  });

export const useGroup = (id: string | undefined) =>
  useQuery({
    queryKey: groupKeys.entity(id ?? ''),
    queryFn: ({ signal }) => http.get<GroupEntity>(groupPath(id!), { signal }),
    enabled: id !== undefined,
  });

/** The roles of a scope that can be given (system roles such as PRIMARY_OWNER left out). */
export const useGivableRoles = (scope: 'API' | 'APPLICATION') =>
  useQuery({
    queryKey: groupKeys.roles(scope),
    queryFn: ({ signal }) => http.get<ScopeRole[]>(`configuration/rolescopes/${scope}/roles`, { signal }),
    select: (roles) => roles.filter((r) => !r.system),
    staleTime: 60_000,
  });

/** `POST` (new) or `PUT` (existing) a group; every group query is refreshed (pickers included). */
export function useSaveGroup(id: string | undefined) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GroupInput) =>
      id === undefined
        ? http.post<GroupEntity>('configuration/groups', input)
        : http.put<GroupEntity>(groupPath(id), input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });
}

export function useDeleteGroup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => http.delete(groupPath(id)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.all }),
  });
}

/** `POST configuration/groups/{id}/memberships?type=`: attaches the group to every API or application. */
export function useAssociateAll(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (type: DependentType) =>
      http.post<GroupEntity>(groupPath(id, '/memberships'), undefined, { query: { type } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.entity(id) }),
  });
}

export const useGroupDependents = (id: string, type: DependentType) =>
  useQuery({
    queryKey: groupKeys.dependents(id, type),
    queryFn: ({ signal }) =>
      http.get<GroupDependent[]>(groupPath(id, '/memberships'), { query: { type }, signal }),
  });

export const useGroupMembers = (id: string) =>
  useQuery({
    queryKey: groupKeys.members(id),
    queryFn: ({ signal }) => http.get<GroupMember[]>(groupPath(id, '/members'), { signal }),
  });

/** `POST configuration/groups/{id}/members`: adds or changes members. */
export function useSaveMembers(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (members: MemberInput[]) => http.post(groupPath(id, '/members'), members, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.entity(id) }),
  });
}

export function useRemoveMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => http.delete(groupPath(id, `/members/${encodeURIComponent(userId)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.entity(id) }),
  });
}

/** `GET configuration/groups/{id}/invitations` (silent: only the group's managers may read them). */
export const useInvitations = (id: string) =>
  useQuery({
    queryKey: groupKeys.invitations(id),
    queryFn: ({ signal }) => http.get<Invitation[]>(groupPath(id, '/invitations'), { signal, silent: true }),
    retry: false,
  });

/** `POST .../invitations`: a mail with a link, or (existing user) a member at once. */
export function useInvite(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InvitationRoles & { email: string }) =>
      http.post<Invitation | undefined>(
        groupPath(id, '/invitations'),
        {
          ...input,
          reference_type: 'GROUP',
          reference_id: id,
        },
        { silent: true },
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.entity(id) }),
  });
}

export function useUpdateInvitation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ invitation, roles }: { invitation: string; roles: InvitationRoles }) =>
      http.put<Invitation>(groupPath(id, `/invitations/${encodeURIComponent(invitation)}`), roles),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.invitations(id) }),
  });
}

export function useDeleteInvitation(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (invitation: string) =>
      http.delete(groupPath(id, `/invitations/${encodeURIComponent(invitation)}`)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: groupKeys.invitations(id) }),
  });
}
