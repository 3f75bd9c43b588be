import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createOutboundPolicy } from '@portico/outbound';
import type { AppContext } from '../../context.js';
import type { PermissionGuards } from '../../http/auth.js';
import { currentUser } from '../../http/auth.js';
import type { AuditService } from '../audit/audit.service.js';
import type { NotificationService } from '../notifications/notifications.service.js';
import { MessagesService } from './messages.service.js';

/** The body of both calls; the service checks the rules and names the field it refuses. */
const Message = z.object({
  title: z.string().nullable().optional(),
  text: z.string().nullable().optional(),
  channel: z.string().optional(),
  recipient: z
    .object({
      role_scope: z.string().nullable().optional(),
      role_value: z
        .union([z.array(z.string()), z.string()])
        .nullable()
        .optional(),
      url: z.string().nullable().optional(),
    })
    .nullable()
    .optional(),
  params: z.record(z.string(), z.string()).nullable().optional(),
  useSystemProxy: z.boolean().optional(),
});

/** `POST messages` (management-message-c) and `POST apis/{id}/messages` (api-message-c). */
export function messagesRoutes(
  app: FastifyInstance,
  deps: {
    ctx: AppContext;
    guards: PermissionGuards;
    audit: AuditService;
    notifications: NotificationService;
  },
): void {
  const { ctx, guards } = deps;
  const messages = new MessagesService({
    db: ctx.db,
    audit: deps.audit,
    notifications: deps.notifications,
    policy: createOutboundPolicy(ctx.options.outbound),
    now: ctx.now,
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/messages',
    {
      schema: {
        tags: ['Messages'],
        summary: 'Send a message to the holders of platform roles; answers the number of recipients',
        body: Message,
      },
      preHandler: guards.require('management-message-c'),
    },
    async (request) => messages.sendToPlatform(currentUser(request).id, request.body),
  );
  r.post(
    '/apis/:api/messages',
    {
      schema: {
        tags: ['Messages'],
        summary: "Send a message to the members of the API's consuming applications; answers the count",
        params: z.object({ api: z.string() }),
        body: Message,
      },
      preHandler: guards.require('api-message-c'),
    },
    async (request) => messages.sendToApiConsumers(currentUser(request).id, request.params.api, request.body),
  );
}
