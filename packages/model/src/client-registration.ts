import { z } from 'zod';

/**
 * Client registration providers (console-applications-and-settings.md 2.3, 3, 5, 9): where BROWSER,
 * WEB and NATIVE applications get their OAuth client through OpenID Connect Dynamic Client
 * Registration. Shared by the management API and the console's form.
 */
export const CLIENT_REGISTRATION_NAME_MIN = 3;
export const CLIENT_REGISTRATION_NAME_MAX = 50;

export const CLIENT_REGISTRATION_MESSAGES = {
  nameRequired: 'Name is required.',
  nameTooShort: `Name has to be more than ${CLIENT_REGISTRATION_NAME_MIN} characters long.`,
  nameTooLong: `Name has to be less than ${CLIENT_REGISTRATION_NAME_MAX} characters long.`,
  discoveryRequired: 'OIDC Discovery Endpoint is required.',
  discoveryNotUrl: 'OIDC Discovery Endpoint must be an http or https URL.',
  clientIdRequired: 'Client Id is required.',
  clientSecretRequired: 'Client Secret is required.',
} as const;

const isHttpUrl = (value: string): boolean => {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
};

const required = (message: string, max: number) => z.string(message).trim().min(1, message).max(max);

/** The body of POST configuration/applications/registration/providers and PUT .../{id}. */
export const ClientRegistrationProviderInput = z.object({
  name: z
    .string(CLIENT_REGISTRATION_MESSAGES.nameRequired)
    .trim()
    .min(1, CLIENT_REGISTRATION_MESSAGES.nameRequired)
    .min(CLIENT_REGISTRATION_NAME_MIN, CLIENT_REGISTRATION_MESSAGES.nameTooShort)
    .max(CLIENT_REGISTRATION_NAME_MAX, CLIENT_REGISTRATION_MESSAGES.nameTooLong),
  description: z.string().max(1000).nullish(),
  discovery_endpoint: required(CLIENT_REGISTRATION_MESSAGES.discoveryRequired, 2048).refine(isHttpUrl, {
    message: CLIENT_REGISTRATION_MESSAGES.discoveryNotUrl,
  }),
  client_id: required(CLIENT_REGISTRATION_MESSAGES.clientIdRequired, 500),
  /** On PUT, an absent secret keeps the stored one. */
  client_secret: z.string().max(2000).nullish(),
  scopes: z.array(z.string().trim().min(1).max(200)).max(50).nullish(),
});
export type ClientRegistrationProviderInput = z.infer<typeof ClientRegistrationProviderInput>;

/** A client registration provider as the API answers it (the secret only to who may update it). */
export interface ClientRegistrationProviderJson {
  id: string;
  name: string;
  description: string | null;
  discovery_endpoint: string;
  client_id: string;
  client_secret?: string;
  scopes: string[];
  created_at: number;
  updated_at: number;
}
