import type { RouteObject } from 'react-router';
import type { RouteAccess } from '../../shared/session/access';

const access = (handle: RouteAccess): RouteAccess => handle;

const applications = () => import('../../features/applications/application-screens');
const subscriptions = () => import('../../features/subscriptions/subscription-screens');
const logScreens = () => import('../../features/logs/logs-screens');

/**
 * The application screens of the console under `/management/applications` (console-applications-and-
 * settings.md 2.1): the list, the creation, and the pages of one application inside its frame.
 */
export const applicationRoutes: RouteObject[] = [
  {
    index: true,
    lazy: async () => ({ Component: (await applications()).ApplicationListPage }),
    handle: access({ docPage: 'management-applications' }),
  },
  {
    path: 'create',
    lazy: async () => ({ Component: (await applications()).ApplicationCreatePage }),
    handle: access({ permissions: [['portal-application-c']], docPage: 'management-applications' }),
  },
  {
    path: ':applicationId',
    lazy: async () => ({ Component: (await import('./application-frame')).ApplicationFrame }),
    children: [
      {
        index: true,
        lazy: async () => ({ Component: (await applications()).ApplicationGeneralPage }),
        handle: access({ docPage: 'management-application' }),
      },
      {
        path: 'subscriptions',
        handle: access({ docPage: 'management-application-subscriptions' }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await subscriptions()).ApplicationSubscriptionsPage }),
          },
          {
            path: ':subscriptionId',
            lazy: async () => ({ Component: (await subscriptions()).ApplicationSubscriptionPage }),
          },
        ],
      },
      {
        path: 'members',
        lazy: async () => ({ Component: (await applications()).ApplicationMembersPage }),
        handle: access({ docPage: 'management-application' }),
      },
      {
        path: 'logs',
        children: [
          { index: true, lazy: async () => ({ Component: (await logScreens()).ApplicationLogsPage }) },
          { path: ':logId', lazy: async () => ({ Component: (await logScreens()).ApplicationLogPage }) },
        ],
      },
      {
        path: 'analytics',
        lazy: async () => ({
          Component: (await import('../../features/analytics/analytics-screens')).ApplicationAnalyticsPage,
        }),
        handle: access({ docPage: 'management-application-analytics' }),
      },
      {
        path: 'notifications',
        lazy: async () => ({
          Component: (await import('../../features/notification-settings/notification-settings-screens'))
            .ApplicationNotificationsPage,
        }),
        handle: access({ docPage: 'management-notifications' }),
      },
    ],
  },
];
