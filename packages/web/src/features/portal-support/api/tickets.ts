import { useMutation, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { http } from '../../../shared/http';

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
  version?: string;
}

/** The APIs the user may see (`GET apis`), for the API choice of `/support`. */
export const useSupportApis = (enabled: boolean) =>
  useQuery({
    queryKey: ['portal', 'support', 'apis'],
    queryFn: ({ signal }) => http.get<Named[]>('apis', { signal }),
    enabled,
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
