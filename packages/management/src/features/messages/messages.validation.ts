import { invalidField } from '@portico/model';

/** The channels a message goes through (spec: Message channels). */
export const MESSAGE_CHANNELS = ['PORTAL', 'MAIL', 'HTTP'] as const;
export type MessageChannel = (typeof MESSAGE_CHANNELS)[number];

/** Bounds of what a client may send. */
export const MESSAGE_LIMITS = { title: 512, text: 10_000, headers: 50, headerValue: 4_000, roles: 50 };

/** A message as clients send it (the spec's and Gravitee's field names). */
export interface MessageInput {
  title?: string | null;
  text?: string | null;
  channel?: string;
  recipient?: {
    role_scope?: string | null;
    role_value?: string[] | string | null;
    url?: string | null;
  } | null;
  params?: Record<string, string> | null;
  useSystemProxy?: boolean;
}

export type CheckedMessage =
  | {
      channel: 'PORTAL' | 'MAIL';
      title: string;
      text: string;
      recipient: { scope: string; roles: string[] };
    }
  | {
      channel: 'HTTP';
      title?: string;
      text: string;
      url: string;
      headers: Record<string, string>;
      useSystemProxy: boolean;
    };

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function requiredText(value: string | null | undefined, field: string, label: string, max: number): string {
  const text = value?.trim() ?? '';
  if (!text) throw invalidField(field, `${label} is required.`);
  if (text.length > max) throw invalidField(field, `${label} must be at most ${max} characters long.`);
  return text;
}

/** The HTTP message's headers: rows with an empty name dropped, names and values checked. */
function checkedHeaders(params: Record<string, string> | null | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  const entries = Object.entries(params ?? {}).filter(([name]) => name.trim() !== '');
  if (entries.length > MESSAGE_LIMITS.headers) {
    throw invalidField('params', `At most ${MESSAGE_LIMITS.headers} headers can be sent.`);
  }
  for (const [rawName, value] of entries) {
    const name = rawName.trim();
    if (!TOKEN.test(name))
      throw invalidField('params', `'${name.slice(0, 100)}' is not a valid header name.`);
    if (typeof value !== 'string' || /[\r\n\0]/.test(value) || value.length > MESSAGE_LIMITS.headerValue) {
      throw invalidField('params', `The value of the header '${name}' is not valid.`);
    }
    headers[name] = value;
  }
  return headers;
}

function checkedUrl(value: string | null | undefined): string {
  const text = value?.trim() ?? '';
  if (!text) throw invalidField('recipient.url', 'URL is required.');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw invalidField('recipient.url', 'URL is not valid.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw invalidField('recipient.url', 'URL must start with http:// or https://.');
  }
  return text;
}

/**
 * Checks a message (spec: text required; title and at least one role required unless the channel is
 * HTTP; URL required when HTTP; header rows with an empty key dropped). `scopes` are the role scopes
 * the recipients may be chosen in: MANAGEMENT (or PORTAL) for platform messages, APPLICATION for an
 * API's.
 */
export function checkedMessage(input: MessageInput, scopes: readonly string[]): CheckedMessage {
  const channel = input.channel;
  if (!channel || !(MESSAGE_CHANNELS as readonly string[]).includes(channel)) {
    throw invalidField('channel', `Channel must be one of ${MESSAGE_CHANNELS.join(', ')}.`);
  }
  const text = requiredText(input.text, 'text', 'Text', MESSAGE_LIMITS.text);
  if (channel === 'HTTP') {
    const title = input.title?.trim();
    if (title && title.length > MESSAGE_LIMITS.title) {
      throw invalidField('title', `Title must be at most ${MESSAGE_LIMITS.title} characters long.`);
    }
    return {
      channel,
      ...(title ? { title } : {}),
      text,
      url: checkedUrl(input.recipient?.url),
      headers: checkedHeaders(input.params),
      useSystemProxy: input.useSystemProxy === true,
    };
  }
  const title = requiredText(input.title, 'title', 'Title', MESSAGE_LIMITS.title);
  const scope = input.recipient?.role_scope ?? scopes[0]!;
  if (!scopes.includes(scope)) {
    throw invalidField(
      'recipient.role_scope',
      `Recipients are chosen by a role of scope ${scopes.join(' or ')}.`,
    );
  }
  const raw = input.recipient?.role_value;
  const roles = [
    ...new Set((Array.isArray(raw) ? raw : raw ? [raw] : []).map((r) => String(r).trim())),
  ].filter((r) => r !== '');
  if (roles.length === 0) throw invalidField('recipient.role_value', 'At least one role is required.');
  if (roles.length > MESSAGE_LIMITS.roles) {
    throw invalidField('recipient.role_value', `At most ${MESSAGE_LIMITS.roles} roles can be chosen.`);
  }
  return { channel: channel as 'PORTAL' | 'MAIL', title, text, recipient: { scope, roles } };
}
