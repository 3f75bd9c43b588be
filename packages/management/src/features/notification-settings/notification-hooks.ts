/** Where notification settings live: an API, an application, or the platform (`PORTAL`, id `DEFAULT`). */
export type HookScope = 'API' | 'APPLICATION' | 'PORTAL';
export const PORTAL_REFERENCE_ID = 'DEFAULT';

export interface Hook {
  id: string;
  label: string;
  description: string;
  category: string;
}

const hook = (id: string, label: string, description: string, category: string): Hook => ({
  id,
  label,
  description,
  category,
});

const SUBSCRIPTION_HOOKS = [
  hook('SUBSCRIPTION_NEW', 'New Subscription', 'Triggered when a Subscription is created.', 'SUBSCRIPTION'),
  hook(
    'SUBSCRIPTION_ACCEPTED',
    'Subscription Accepted',
    'Triggered when a Subscription is accepted.',
    'SUBSCRIPTION',
  ),
  hook(
    'SUBSCRIPTION_CLOSED',
    'Subscription Closed',
    'Triggered when a Subscription is closed.',
    'SUBSCRIPTION',
  ),
  hook(
    'SUBSCRIPTION_PAUSED',
    'Subscription Paused',
    'Triggered when a Subscription is paused.',
    'SUBSCRIPTION',
  ),
  hook(
    'SUBSCRIPTION_RESUMED',
    'Subscription Resumed',
    'Triggered when a Subscription is resumed.',
    'SUBSCRIPTION',
  ),
  hook(
    'SUBSCRIPTION_REJECTED',
    'Subscription Rejected',
    'Triggered when a Subscription is rejected.',
    'SUBSCRIPTION',
  ),
  hook(
    'SUBSCRIPTION_TRANSFERRED',
    'Subscription Transferred',
    'Triggered when a Subscription is transferred.',
    'SUBSCRIPTION',
  ),
];
/** An alert of the scope changing state (triggered or resolved): told through the scope's settings. */
const ALERT = hook('ALERT', 'Alert', 'Triggered when an alert fires or is resolved', 'ALERT');
const SUPPORT = hook(
  'NEW_SUPPORT_TICKET',
  'New Support Ticket',
  'Triggered when a new support ticket is created',
  'SUPPORT',
);

/** The hooks each scope offers (as Gravitee 1.30's ApiHook, ApplicationHook and PortalHook). */
export const HOOKS: Record<HookScope, Hook[]> = {
  API: [
    hook('APIKEY_EXPIRED', 'API key Expired', 'Triggered when an API key is expired.', 'API KEY'),
    hook('APIKEY_RENEWED', 'API key Renewed', 'Triggered when an API key is renewed.', 'API KEY'),
    hook('APIKEY_REVOKED', 'API key Revoked', 'Triggered when an API key is revoked.', 'API KEY'),
    ...SUBSCRIPTION_HOOKS,
    SUPPORT,
    hook('API_STARTED', 'API Started', 'Triggered when an API is started', 'LIFECYCLE'),
    hook('API_STOPPED', 'API Stopped', 'Triggered when an API is stopped', 'LIFECYCLE'),
    hook('API_DEPRECATED', 'API Deprecated', 'Triggered when an API is deprecated', 'LIFECYCLE'),
    hook('NEW_RATING', 'New Rating', 'Triggered when a new rating is submitted', 'RATING'),
    hook('NEW_RATING_ANSWER', 'New Rating Answer', 'Triggered when a new answer is submitted', 'RATING'),
    hook('ASK_FOR_REVIEW', 'Ask for API review', 'Triggered when an API can be reviewed', 'REVIEW'),
    hook('REVIEW_OK', 'Accept API review', "Triggered when an API's review has been accepted", 'REVIEW'),
    hook(
      'REQUEST_FOR_CHANGES',
      'Reject API review',
      "Triggered when an API's review has been rejected",
      'REVIEW',
    ),
    ALERT,
  ],
  APPLICATION: [...SUBSCRIPTION_HOOKS, SUPPORT, ALERT],
  PORTAL: [
    hook('USER_REGISTERED', 'User Registered', 'Triggered when an user is registered', 'USER'),
    hook('USER_CREATED', 'User Created', 'Triggered when an user is created', 'USER'),
    hook('USER_FIRST_LOGIN', 'First Login', 'Triggered when an user log in for the first time', 'USER'),
    hook('PASSWORD_RESET', 'Password Reset', 'Triggered when a password is reset', 'USER'),
    SUPPORT,
    hook('GROUP_INVITATION', 'Group invitation', 'Triggered when an user is invited in a group', 'GROUP'),
    ALERT,
  ],
};

export const DEFAULT_EMAIL_NOTIFIER = 'default-email';
export const DEFAULT_WEBHOOK_NOTIFIER = 'default-webhook';

/** The notifiers of every scope (as Gravitee: one email and one webhook notifier). */
export const NOTIFIERS = [
  { id: DEFAULT_EMAIL_NOTIFIER, name: 'Default Email Notifier', type: 'EMAIL' },
  { id: DEFAULT_WEBHOOK_NOTIFIER, name: 'Default Webhook Notifier', type: 'WEBHOOK' },
] as const;

export const notifierType = (id: string | null) => NOTIFIERS.find((n) => n.id === id)?.type;
