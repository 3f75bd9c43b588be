/**
 * The screens of both faces, by the spec's route names, and those this build has. Links and menu
 * entries of a screen that does not exist yet are not shown; each later issue adds its screens here.
 */
export type Screen =
  | 'portal.home'
  | 'portal.apis'
  | 'portal.views'
  | 'portal.view'
  | 'portal.pages'
  | 'portal.api.detail'
  | 'portal.api.pages'
  | 'portal.api.subscribe'
  | 'portal.api.rating'
  | 'portal.api.support'
  | 'support'
  | 'login'
  | 'registration'
  | 'confirm'
  | 'resetPassword'
  | 'user'
  | 'management.apis.list'
  | 'management.apis.new'
  | 'management.apis.create'
  | 'management.apis.detail.portal.general'
  | 'management.apis.detail.portal.plans'
  | 'management.apis.detail.portal.subscriptions'
  | 'management.apis.detail.portal.documentation'
  | 'management.apis.detail.metadata'
  | 'management.apis.detail.members'
  | 'management.apis.detail.groups'
  | 'management.apis.detail.messages'
  | 'management.apis.detail.notifications'
  | 'management.apis.detail.history'
  | 'management.apis.detail.events'
  | 'management.apis.detail.audit'
  | 'management.apis.detail.analytics.logs'
  | 'management.apis.detail.proxy.endpoints'
  | 'management.apis.detail.proxy.healthcheck'
  | 'management.apis.detail.proxy.general'
  | 'management.apis.detail.proxy.cors'
  | 'management.apis.detail.proxy.deployments'
  | 'management.apis.detail.proxy.failover'
  | 'management.apis.detail.proxy.responsetemplates'
  | 'management.apis.detail.design.policies'
  | 'management.apis.detail.design.resources'
  | 'management.apis.detail.design.properties'
  | 'management.apis.detail.design.pathMappings'
  | 'management.apis.detail.analytics.overview'
  | 'management.applications'
  | 'management.instances'
  | 'management.platform'
  | 'management.audit'
  | 'management.messages'
  | 'management.settings'
  | 'management.tasks';

export const AVAILABLE_SCREENS: ReadonlySet<Screen> = new Set<Screen>([
  'portal.home',
  'portal.apis',
  'portal.views',
  'portal.view',
  'portal.pages',
  'portal.api.detail',
  'portal.api.pages',
  'portal.api.subscribe',
  'portal.api.rating',
  'portal.api.support',
  'support',
  'login',
  'registration',
  'confirm',
  'resetPassword',
  'user',
  'management.apis.list',
  'management.apis.new',
  'management.apis.create',
  'management.apis.detail.portal.general',
  'management.apis.detail.portal.plans',
  'management.apis.detail.portal.subscriptions',
  'management.apis.detail.metadata',
  'management.apis.detail.members',
  'management.apis.detail.groups',
  'management.apis.detail.messages',
  'management.apis.detail.notifications',
  'management.messages',
  'management.apis.detail.portal.documentation',
  'management.apis.detail.history',
  'management.apis.detail.events',
  'management.apis.detail.audit',
  'management.apis.detail.analytics.logs',
  'management.apis.detail.proxy.endpoints',
  'management.apis.detail.proxy.healthcheck',
  'management.apis.detail.proxy.general',
  'management.apis.detail.proxy.cors',
  'management.apis.detail.proxy.deployments',
  'management.apis.detail.proxy.failover',
  'management.apis.detail.proxy.responsetemplates',
  'management.apis.detail.design.policies',
  'management.apis.detail.design.resources',
  'management.apis.detail.design.properties',
  'management.apis.detail.design.pathMappings',
  'management.apis.detail.analytics.overview',
  'management.applications',
  'management.instances',
  'management.platform',
  'management.audit',
  'management.settings',
  'management.tasks',
]);

export const isAvailable = (screen: Screen, available: ReadonlySet<Screen> = AVAILABLE_SCREENS) =>
  available.has(screen);
