import { useMutation, useQuery } from '@tanstack/react-query';
import { http } from '../../../shared/http';

/** The channels a message goes through (console-applications-and-settings.md section 9). */
export const MESSAGE_CHANNELS = ['PORTAL', 'MAIL', 'HTTP'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** What `POST messages` and `POST apis/{id}/messages` take (spec section 3: Message). */
export interface Message {
  title?: string;
  text: string;
  channel: MessageChannel;
  recipient: { role_scope: string; role_value: string[] } | { url: string };
  params?: Record<string, string>;
  useSystemProxy?: boolean;
}

interface RoleSummary {
  name: string;
}

/** The role names of a scope, to choose recipients: MANAGEMENT for platform messages, APPLICATION for an API's. */
export const useRecipientRoles = (scope: 'MANAGEMENT' | 'APPLICATION') =>
  useQuery({
    queryKey: ['roles', scope, 'names'],
    queryFn: ({ signal }) => http.get<RoleSummary[]>(`configuration/rolescopes/${scope}/roles`, { signal }),
    select: (roles) => roles.map((r) => r.name),
  });

/** Sends a message; answers the number of recipients reached. `apiId` sends to the API's consumers. */
export const useSendMessage = (apiId?: string) =>
  useMutation({
    mutationFn: (message: Message) =>
      http.post<number>(apiId ? `apis/${encodeURIComponent(apiId)}/messages` : 'messages', message),
  });
