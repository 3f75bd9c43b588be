import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { http } from '../../../shared/http';
import type { ApiChoice } from './api-choice';
import { firstMatches } from './api-choice';

/** A ticket as `POST platform/tickets` takes it (portal-and-platform.md 3, Ticket). */
export interface Ticket {
  api?: string;
  application?: string;
  subject: string;
  content: string;
  copyToSender: boolean;
}

/** The longest subject and content the server accepts. */
export const SUBJECT_MAX = 256;
export const CONTENT_MAX = 10_000;

/** The form's rules (section 5): subject and content required; messages are translation keys. */
export const ticketSchema = z.object({
  api: z.string(),
  application: z.string(),
  subject: z
    .string()
    .trim()
    .min(1, 'support.validation.subjectRequired')
    .max(SUBJECT_MAX, 'support.validation.tooLong'),
  content: z
    .string()
    .trim()
    .min(1, 'support.validation.contentRequired')
    .max(CONTENT_MAX, 'support.validation.tooLong'),
  copyToSender: z.boolean(),
});
export type TicketValues = z.infer<typeof ticketSchema>;

/** The ticket to send: empty choices are left out. */
export function toTicket(values: TicketValues): Ticket {
  const parsed = ticketSchema.parse(values);
  return {
    ...(parsed.api ? { api: parsed.api } : {}),
    ...(parsed.application ? { application: parsed.application } : {}),
    subject: parsed.subject,
    content: parsed.content,
    copyToSender: parsed.copyToSender,
  };
}

export const useCreateTicket = () =>
  useMutation({ mutationFn: (ticket: Ticket) => http.post<unknown>('platform/tickets', ticket) });

interface Named {
  id: string;
  name: string;
}

/**
 * `POST portal/apis/_search?q=`, the catalogue's search, for the API choice of `/support`: the first 20
 * APIs the user may see matching every word, and how many match.
 */
export const useSupportApiSearch = (q: string | undefined) =>
  useQuery({
    queryKey: ['portal', 'support', 'apis', q],
    queryFn: ({ signal }) =>
      http.post<ApiChoice[]>('portal/apis/_search', undefined, { signal, query: { q } }),
    enabled: q !== undefined,
    select: firstMatches,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });

/**
 * `GET applications/{id}/subscribed`: the APIs the chosen application subscribes to, the API choice's
 * first options (one call; no call lists the APIs of every application of the user at once).
 */
export const useSubscribedApis = (applicationId: string) =>
  useQuery({
    queryKey: ['portal', 'support', 'applications', applicationId, 'subscribed'],
    queryFn: ({ signal }) =>
      http.get<ApiChoice[]>(`applications/${encodeURIComponent(applicationId)}/subscribed`, {
        signal,
        silent: true,
      }),
    enabled: applicationId !== '',
    staleTime: 60_000,
  });

/** The user's applications (`GET applications/`), for the application choice. */
export const useSupportApplications = (enabled: boolean) =>
  useQuery({
    queryKey: ['portal', 'support', 'applications'],
    queryFn: ({ signal }) => http.get<Named[]>('applications', { signal, silent: true }),
    enabled,
    staleTime: 60_000,
  });
