import { Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import type { RouteAccess } from '../../shared/session/access';

const access = (handle: RouteAccess): RouteAccess => handle;

const planScreens = () => import('../../features/plans/plan-screens');
const subscriptionScreens = () => import('../../features/subscriptions/subscription-screens');
const proxyScreens = () => import('../../features/api-proxy/proxy-screens');
const healthScreens = () => import('../../features/health/health-screens');
const pageScreens = () => import('../../features/pages/page-screens');
const logScreens = () => import('../../features/logs/logs-screens');
const designScreens = () => import('../../features/api-design/design-screens');

/**
 * The API screens of the console under `/management/apis` (console-apis.md 2.1 to 2.4, 2.9, 2.10). The
 * pages of one API render inside its frame; each later screen of an API adds its route to the frame's
 * children (and its entry to API_MENU).
 */
export const apiRoutes: RouteObject[] = [
  {
    index: true,
    lazy: async () => ({
      Component: (await import('../../features/apis/components/list/api-list-page')).ApiListPage,
    }),
    handle: access({ docPage: 'management-apis' }),
  },
  {
    path: 'new',
    handle: access({
      authenticated: true,
      permissions: [['management-api-c']],
      docPage: 'management-apis-new',
    }),
    children: [
      {
        index: true,
        lazy: async () => ({
          Component: (await import('../../features/apis/components/create/api-new-page')).ApiNewPage,
        }),
      },
      {
        path: 'create',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/create/creation-wizard')).CreationWizard,
        }),
      },
    ],
  },
  {
    path: ':apiId',
    lazy: async () => ({ Component: (await import('./api-frame')).ApiFrame }),
    handle: access({ authenticated: true }),
    children: [
      { index: true, element: <Navigate to="portal" replace /> },
      {
        path: 'portal',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/general/general-page')).GeneralPage,
        }),
        handle: access({ docPage: 'management-api-general' }),
      },
      {
        path: 'history',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/history/history-page')).HistoryPage,
        }),
        handle: access({ docPage: 'management-api-history' }),
      },
      {
        path: 'events',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/history/events-page')).EventsPage,
        }),
        handle: access({ docPage: 'management-api-history' }),
      },
      {
        path: 'logs',
        children: [
          { index: true, lazy: async () => ({ Component: (await logScreens()).ApiLogsPage }) },
          { path: 'configure', lazy: async () => ({ Component: (await logScreens()).ApiLoggingPage }) },
          { path: ':logId', lazy: async () => ({ Component: (await logScreens()).ApiLogPage }) },
        ],
      },
      {
        path: 'audit',
        lazy: async () => ({
          Component: (await import('../../features/audit/audit-screens')).ApiAuditPage,
        }),
      },
      {
        path: 'messages',
        lazy: async () => ({
          Component: (await import('../../features/messages/messages-screens')).ApiMessagesPage,
        }),
      },
      {
        path: 'notifications',
        lazy: async () => ({
          Component: (await import('../../features/notification-settings/notification-settings-screens'))
            .ApiNotificationsPage,
        }),
        handle: access({ docPage: 'management-notifications' }),
      },
      {
        path: 'analytics',
        lazy: async () => ({
          Component: (await import('../../features/analytics/analytics-screens')).ApiAnalyticsPage,
        }),
        handle: access({ docPage: 'management-api-analytics' }),
      },
      {
        path: 'members',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/members/members-page')).MembersPage,
        }),
        handle: access({ docPage: 'management-api-members' }),
      },
      {
        path: 'transferownership',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/members/transfer-ownership-page'))
            .TransferOwnershipPage,
        }),
        handle: access({ docPage: 'management-api-members' }),
      },
      {
        path: 'groups',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/members/groups-page')).GroupsPage,
        }),
        handle: access({ docPage: 'management-api-members' }),
      },
      {
        path: 'metadata',
        lazy: async () => ({
          Component: (await import('../../features/apis/components/metadata/metadata-page')).MetadataPage,
        }),
        handle: access({ docPage: 'management-api-members' }),
      },
      {
        path: 'proxy',
        children: [
          { index: true, lazy: async () => ({ Component: (await proxyScreens()).DetailsPage }) },
          { path: 'cors', lazy: async () => ({ Component: (await proxyScreens()).CorsPage }) },
          { path: 'deployments', lazy: async () => ({ Component: (await proxyScreens()).DeploymentsPage }) },
          { path: 'failover', lazy: async () => ({ Component: (await proxyScreens()).FailoverPage }) },
          {
            path: 'responsetemplates',
            lazy: async () => ({ Component: (await proxyScreens()).TemplatesPage }),
          },
          {
            path: 'responsetemplates/new',
            lazy: async () => ({ Component: (await proxyScreens()).TemplatePage }),
          },
          {
            path: 'responsetemplates/:key',
            lazy: async () => ({ Component: (await proxyScreens()).TemplatePage }),
          },
          { path: 'endpoints', lazy: async () => ({ Component: (await proxyScreens()).EndpointsPage }) },
          { path: 'discovery', lazy: async () => ({ Component: (await proxyScreens()).DiscoveryPage }) },
          { path: 'newgroup', lazy: async () => ({ Component: (await proxyScreens()).GroupPage }) },
          { path: 'groups/:groupName', lazy: async () => ({ Component: (await proxyScreens()).GroupPage }) },
          {
            path: 'groups/:groupName/newendpoint',
            lazy: async () => ({ Component: (await proxyScreens()).EndpointPage }),
          },
          {
            path: 'groups/:groupName/endpoints/:endpointName',
            lazy: async () => ({ Component: (await proxyScreens()).EndpointPage }),
          },
          {
            path: 'groups/:groupName/endpoints/:endpointName/healthcheck',
            lazy: async () => ({ Component: (await healthScreens()).EndpointHealthPage }),
          },
          {
            path: 'healthcheck',
            lazy: async () => ({ Component: (await healthScreens()).HealthDashboardPage }),
          },
          {
            path: 'healthcheck/configure',
            lazy: async () => ({ Component: (await healthScreens()).ConfigurePage }),
          },
          {
            path: 'healthcheck/logs/:logId',
            lazy: async () => ({ Component: (await healthScreens()).HealthLogPage }),
          },
        ],
      },
      {
        path: 'policies',
        lazy: async () => ({ Component: (await designScreens()).PoliciesPage }),
        handle: access({ docPage: 'management-api-policies' }),
      },
      {
        path: 'resources',
        lazy: async () => ({ Component: (await designScreens()).ResourcesPage }),
        handle: access({ docPage: 'management-api-resources' }),
      },
      {
        path: 'properties',
        lazy: async () => ({ Component: (await designScreens()).PropertiesPage }),
        handle: access({ docPage: 'management-api-properties' }),
      },
      {
        path: 'path-mappings',
        lazy: async () => ({ Component: (await designScreens()).PathMappingsPage }),
        handle: access({ docPage: 'management-api-path-mappings' }),
      },
      {
        path: 'documentation',
        handle: access({ docPage: 'management-api-documentation' }),
        children: [
          { index: true, lazy: async () => ({ Component: (await pageScreens()).PagesListPage }) },
          { path: 'new', lazy: async () => ({ Component: (await pageScreens()).PageEditPage }) },
          { path: 'import', lazy: async () => ({ Component: (await pageScreens()).PagesImportPage }) },
          { path: ':pageId', lazy: async () => ({ Component: (await pageScreens()).PageViewPage }) },
          { path: ':pageId/edit', lazy: async () => ({ Component: (await pageScreens()).PageEditPage }) },
        ],
      },
      {
        path: 'plans',
        handle: access({ docPage: 'management-api-plans' }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await planScreens()).PlansPage }),
          },
          {
            path: 'new',
            lazy: async () => ({ Component: (await planScreens()).PlanWizard }),
          },
          {
            path: ':planId/edit?',
            lazy: async () => ({ Component: (await planScreens()).PlanWizard }),
          },
        ],
      },
      {
        path: 'subscriptions',
        handle: access({ docPage: 'management-api-subscriptions' }),
        children: [
          {
            index: true,
            lazy: async () => ({
              Component: (await subscriptionScreens()).ApiSubscriptionsPage,
            }),
          },
          {
            path: ':subscriptionId',
            lazy: async () => ({
              Component: (await subscriptionScreens()).ApiSubscriptionPage,
            }),
          },
        ],
      },
    ],
  },
];
