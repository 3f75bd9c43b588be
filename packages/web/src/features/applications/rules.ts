import {
  APPLICATION_NAME_MAX,
  APPLICATION_TYPES,
  CLIENT_ID_MAX,
  GRANT_TYPE_RULES,
  REDIRECT_GRANT_TYPES,
} from '@portico/model';
import { z } from 'zod';
import type { ApplicationType, GrantType } from './api/types';

export { APPLICATION_TYPES, GRANT_TYPE_RULES };

/** The application list shows 20 more rows at a time. */
export const APPLICATION_LIST_STEP = 20;

export const AppMessages = {
  nameRequired: 'applications.validation.nameRequired',
  nameTooLong: 'applications.validation.nameTooLong',
  descriptionRequired: 'applications.validation.descriptionRequired',
  clientIdTooLong: 'applications.validation.clientIdTooLong',
  grantTypesRequired: 'applications.validation.grantTypesRequired',
  redirectUrisRequired: 'applications.validation.redirectUrisRequired',
  redirectUriInvalid: 'applications.validation.redirectUriInvalid',
} as const;

const isUrl = (value: string) => {
  try {
    return new URL(value).protocol.length > 0;
  } catch {
    return false;
  }
};

/** The values of the application forms (creation and general settings). */
export const applicationFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, AppMessages.nameRequired)
      .max(APPLICATION_NAME_MAX, AppMessages.nameTooLong),
    description: z.string().trim().min(1, AppMessages.descriptionRequired),
    type: z.enum(APPLICATION_TYPES),
    appType: z.string().max(64),
    clientId: z.string().trim().max(CLIENT_ID_MAX, AppMessages.clientIdTooLong),
    grantTypes: z.array(z.string()),
    redirectUris: z.array(z.string()),
    groups: z.array(z.string()),
  })
  .superRefine((values, ctx) => {
    if (values.type === 'SIMPLE') return;
    if (values.grantTypes.length === 0)
      ctx.addIssue({ code: 'custom', path: ['grantTypes'], message: AppMessages.grantTypesRequired });
    const redirects = values.grantTypes.some((g) => REDIRECT_GRANT_TYPES.includes(g as GrantType));
    if (redirects && values.redirectUris.length === 0)
      ctx.addIssue({ code: 'custom', path: ['redirectUris'], message: AppMessages.redirectUrisRequired });
    if (values.redirectUris.some((uri) => !isUrl(uri)))
      ctx.addIssue({ code: 'custom', path: ['redirectUris'], message: AppMessages.redirectUriInvalid });
  });
export type ApplicationFormValues = z.input<typeof applicationFormSchema>;

/** A new form of the given type: an OAuth type starts with its default grant types. */
export function emptyApplicationForm(type: ApplicationType): ApplicationFormValues {
  return {
    name: '',
    description: '',
    type,
    appType: '',
    clientId: '',
    grantTypes: type === 'SIMPLE' ? [] : [...GRANT_TYPE_RULES[type].default],
    redirectUris: [],
    groups: [],
  };
}

/** The settings part of the payload. */
export function settingsOf(values: ApplicationFormValues) {
  return values.type === 'SIMPLE'
    ? { app: { type: values.appType.trim() || null, client_id: values.clientId.trim() || null } }
    : {
        oauth: {
          application_type: values.type,
          grant_types: values.grantTypes as GrantType[],
          redirect_uris: values.redirectUris,
        },
      };
}
