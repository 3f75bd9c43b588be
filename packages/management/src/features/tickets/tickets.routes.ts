import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, requireUser } from '../../http/auth.js';
import type { TicketsDeps } from './tickets.service.js';
import { TicketsService } from './tickets.service.js';

export const SUBJECT_REQUIRED = 'The subject is required.';
export const CONTENT_REQUIRED = 'The content is required.';

const required = (message: string, max: number) =>
  z
    .string({ error: (i) => (typeof i.input === 'string' ? undefined : message) })
    .trim()
    .min(1, message)
    .max(max, `At most ${max} characters.`);
const optionalId = z
  .string()
  .trim()
  .max(200)
  .nullable()
  .optional()
  .transform((v) => v || undefined);

/** The ticket of portal-and-platform.md 3 (api, application, subject, content, copyToSender). */
const TicketBody = z.object({
  api: optionalId,
  application: optionalId,
  subject: required(SUBJECT_REQUIRED, 256),
  content: required(CONTENT_REQUIRED, 10_000),
  copyToSender: z.boolean().optional().default(false),
});

/** `POST platform/tickets`: any signed-in user; answers 201 once the mail is handed to the mail server. */
export function ticketsRoutes(app: FastifyInstance, deps: TicketsDeps): void {
  const tickets = new TicketsService(deps);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/platform/tickets',
    {
      schema: {
        tags: ['Support'],
        summary: "Open a support ticket: a mail to the API's primary owner or to the support address",
        body: TicketBody,
      },
      preHandler: requireUser,
    },
    async (request, reply) => {
      await tickets.create(currentUser(request), request.body);
      return reply.status(201).send({
        api: request.body.api ?? null,
        application: request.body.application ?? null,
        subject: request.body.subject,
        copyToSender: request.body.copyToSender,
      });
    },
  );
}
