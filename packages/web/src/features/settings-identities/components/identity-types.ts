import type { TFunction } from 'i18next';
import type { IdentityProviderConfiguration, IdentityProviderType } from '@portico/model';

/** The name of a provider type, as the menu and the badges show it. */
export const typeLabel = (t: TFunction, type: string): string =>
  type === 'portico-am'
    ? t('settingsIdentities.types.porticoAm')
    : type === 'google'
      ? 'Google'
      : type === 'github'
        ? 'GitHub'
        : t('settingsIdentities.types.oidc');

/** The configuration fields of each type (section 3), in form order. */
export const CONFIGURATION_FIELDS: Record<IdentityProviderType, (keyof IdentityProviderConfiguration)[]> = {
  google: ['clientId', 'clientSecret'],
  github: ['clientId', 'clientSecret'],
  'portico-am': ['clientId', 'clientSecret', 'serverURL', 'domain', 'scopes', 'color'],
  oidc: [
    'clientId',
    'clientSecret',
    'tokenEndpoint',
    'tokenIntrospectionEndpoint',
    'authorizeEndpoint',
    'userInfoEndpoint',
    'userLogoutEndpoint',
    'scopes',
    'color',
  ],
};
