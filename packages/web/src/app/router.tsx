import { Navigate, createBrowserRouter } from 'react-router';
import type { RouteObject } from 'react-router';
import type { RouteAccess } from '../shared/session/access';
import { PageLoader } from '../shared/ui/page-loader';
import { apiRoutes } from './console/api-routes';
import { applicationRoutes } from './console/application-routes';
import { settingsRoutes } from './console/settings/settings-routes';
import { RootLayout } from './root-layout';

const access = (handle: RouteAccess): RouteAccess => handle;

/**
 * Both faces. The portal (at /) and the console (at /management) are lazily loaded route trees: the
 * console's code loads only when a console route is opened. Each route's `handle` says who may see it
 * (see RouteAccess); later issues add their screens to these trees.
 */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    HydrateFallback: PageLoader,
    children: [
      {
        id: 'portal',
        lazy: async () => ({ Component: (await import('./portal/portal-layout')).PortalLayout }),
        handle: access({ face: 'portal', devMode: true }),
        children: [
          {
            index: true,
            lazy: async () => ({ Component: (await import('./portal/home-page')).HomePage }),
          },
          {
            path: 'login',
            lazy: async () => {
              const page = await import('../features/auth/components/login-page');
              return { Component: page.LoginPage, loader: page.loader };
            },
            handle: access({ public: true, anonymousOnly: true, hideTopBarWhenForcedLogin: true }),
          },
          {
            path: 'registration',
            lazy: async () => ({
              Component: (await import('../features/registration/components/registration-page'))
                .RegistrationPage,
            }),
            handle: access({
              public: true,
              anonymousOnly: true,
              userCreation: true,
              hideTopBarWhenForcedLogin: true,
            }),
          },
          // A confirmation link without its token: portal home.
          { path: 'registration/confirm', element: <Navigate to="/" replace /> },
          {
            path: 'registration/confirm/:token',
            lazy: async () => ({
              Component: (await import('../features/registration/components/confirm-registration-page'))
                .ConfirmRegistrationPage,
            }),
            handle: access({ public: true, userCreation: true, hideTopBarWhenForcedLogin: true }),
          },
          {
            path: 'resetPassword/:token',
            lazy: async () => ({
              Component: (await import('../features/password-reset/components/reset-password-page'))
                .ResetPasswordPage,
            }),
            handle: access({ public: true, hideTopBarWhenForcedLogin: true }),
          },
          {
            path: 'user',
            lazy: async () => ({
              Component: (await import('../features/profile/components/profile-page')).ProfilePage,
            }),
            handle: access({ authenticated: true }),
          },
          {
            path: 'pages/:pageId?',
            lazy: async () => ({
              Component: (await import('../features/portal-pages/portal-pages-screens'))
                .PortalDocumentationPage,
            }),
          },
          {
            path: 'apis',
            lazy: async () => ({
              Component: (await import('../features/portal-catalogue/portal-catalogue-screens')).ApisEntry,
            }),
          },
          {
            path: 'views',
            lazy: async () => ({
              Component: (await import('../features/portal-catalogue/portal-catalogue-screens')).ViewsPage,
            }),
          },
          {
            path: 'views/:viewId',
            lazy: async () => ({
              Component: (await import('../features/portal-catalogue/portal-catalogue-screens')).ViewPage,
            }),
          },
          {
            path: 'apis/:apiId',
            lazy: async () => ({
              Component: (await import('../features/portal-apis/portal-api-screens')).ApiDetailFrame,
            }),
            children: [
              { index: true, element: <Navigate to="detail" replace /> },
              {
                path: 'detail',
                lazy: async () => ({
                  Component: (await import('../features/portal-apis/portal-api-screens')).ApiOverview,
                }),
              },
              {
                path: 'ratings',
                lazy: async () => ({
                  Component: (await import('../features/portal-ratings/portal-ratings-screens')).RatingsPage,
                }),
              },
              {
                path: 'subscribe',
                lazy: async () => ({
                  Component: (await import('../features/portal-subscribe/portal-subscribe-screens'))
                    .SubscribePage,
                }),
                handle: access({ authenticated: true }),
              },
              {
                path: 'pages/:pageId?',
                lazy: async () => ({
                  Component: (await import('../features/portal-apis/portal-api-screens'))
                    .ApiDocumentationPage,
                }),
              },
              {
                path: 'support',
                lazy: async () => ({
                  Component: (await import('../features/portal-support/portal-support-screens'))
                    .ApiSupportPage,
                }),
              },
            ],
          },
          {
            path: 'support',
            lazy: async () => ({
              Component: (await import('../features/portal-support/portal-support-screens')).SupportPage,
            }),
          },
        ],
      },
      {
        id: 'console',
        path: 'management',
        lazy: async () => ({ Component: (await import('./console/console-layout')).ConsoleLayout }),
        handle: access({ face: 'console' }),
        children: [
          // The console opens on the API list.
          { index: true, element: <Navigate to="apis" replace /> },
          { path: 'apis', children: apiRoutes },
          // Developer-portal-only mode leaves non-administrators their applications and tasks.
          {
            path: 'applications',
            children: applicationRoutes,
            handle: access({ authenticated: true, devMode: true }),
          },
          {
            path: 'instances',
            handle: access({ authenticated: true, permissions: [['management-instance-r']] }),
            children: [
              {
                index: true,
                lazy: async () => ({
                  Component: (await import('../features/instances/instances-screens')).InstancesPage,
                }),
              },
              {
                path: ':instanceId',
                lazy: async () => ({
                  Component: (await import('../features/instances/instances-screens')).InstanceFrame,
                }),
                children: [
                  { index: true, element: <Navigate to="environment" replace /> },
                  {
                    path: 'environment',
                    lazy: async () => ({
                      Component: (await import('../features/instances/instances-screens'))
                        .InstanceEnvironment,
                    }),
                  },
                  {
                    path: 'monitoring',
                    lazy: async () => ({
                      Component: (await import('../features/instances/instances-screens')).InstanceMonitoring,
                    }),
                  },
                ],
              },
            ],
          },
          {
            path: 'platform',
            lazy: async () => ({
              Component: (await import('../features/analytics/analytics-screens')).PlatformDashboardPage,
            }),
            handle: access({ authenticated: true, permissions: [['management-platform-r']] }),
          },
          {
            path: 'audit',
            lazy: async () => ({
              Component: (await import('../features/audit/audit-screens')).PlatformAuditPage,
            }),
            handle: access({ authenticated: true, permissions: [['management-audit-r']] }),
          },
          {
            path: 'messages',
            lazy: async () => ({
              Component: (await import('../features/messages/messages-screens')).PlatformMessagesPage,
            }),
            handle: access({ authenticated: true, permissions: [['management-message-c']] }),
          },
          { path: 'settings', children: settingsRoutes },
          {
            path: 'tasks',
            lazy: async () => ({
              Component: (await import('../features/subscriptions/subscription-screens')).TasksPage,
            }),
            handle: access({ authenticated: true, devMode: true, docPage: 'management-tasks' }),
          },
        ],
      },
      // Unknown URLs go to portal home.
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

let instance: ReturnType<typeof createBrowserRouter> | undefined;

/**
 * The router, created on first use. Creating it starts the first navigation and its loaders (the
 * login route's exchanges a provider's code with the management API), so it must not exist before
 * the start-up has wired the HTTP client to the API's base URL.
 */
export function appRouter(): ReturnType<typeof createBrowserRouter> {
  return (instance ??= createBrowserRouter(routes));
}
