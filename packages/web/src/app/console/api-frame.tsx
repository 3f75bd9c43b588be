import { Anchor, Breadcrumbs, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { apiQueryOptions } from '../../features/apis/api/get-api';
import { ApiHeader } from '../../features/apis/components/frame/api-header';
import { SyncBanner } from '../../features/apis/components/frame/sync-banner';
import { isHttpError } from '../../shared/http';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { PageLoader } from '../../shared/ui/page-loader';
import { isAvailable } from '../screens';
import type { ApiMenuGroup } from './api-menu';
import { apiPageNeeds, visibleApiMenu } from './api-menu';
import classes from './api-frame.module.css';

const GROUPS: ApiMenuGroup[] = ['portal', 'proxy', 'design', 'analytics'];
const SECTIONS = {
  portal: 'apis.menu.section.portal',
  proxy: 'apiProxy.menu.section',
  design: 'apiDesign.menu.section',
  analytics: 'apis.menu.section.analytics',
} as const;

/**
 * `/management/apis/{apiId}` (console-apis.md 2.3): loads the API and the user's permissions on it, then
 * shows the out-of-sync banner, the header, the API's menu and the page. A page whose permission the
 * user lacks gives way to the general page.
 */
export function ApiFrame() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const location = useLocation();
  const api = useQuery(apiQueryOptions(apiId));
  const permissions = useApiPermissions(apiId);

  if (api.isError) {
    return (
      <Stack gap="sm" py="xl" role="alert">
        <Text fw={600}>
          {isHttpError(api.error) && api.error.status === 404
            ? t('apis.frame.notFound')
            : t('errors.unexpected')}
        </Text>
        <Anchor component={Link} to="/management/apis">
          {t('apis.frame.backToList')}
        </Anchor>
      </Stack>
    );
  }
  if (!api.data || permissions.isPending) return <PageLoader />;

  const base = `/management/apis/${encodeURIComponent(apiId)}`;
  const page = location.pathname.slice(base.length + 1).split('/')[0] ?? '';
  const needs = apiPageNeeds(page);
  if (needs && !permissions.hasAny(needs)) return <Navigate to={`${base}/portal`} replace />;

  const menu = visibleApiMenu(permissions.hasAny);
  const canUpdate = permissions.has('api-definition-u');
  const plans = menu.find((entry) => entry.path === 'plans');
  const { api: current } = api.data;

  return (
    <Stack gap="md" className={classes.frame}>
      <Breadcrumbs>
        <Anchor component={Link} to="/management/apis" size="sm">
          {t('apis.list.title')}
        </Anchor>
        <Text size="sm">{current.name}</Text>
      </Breadcrumbs>
      {canUpdate && <SyncBanner apiId={apiId} apiName={current.name} />}
      <ApiHeader
        api={current}
        canUpdate={canUpdate}
        plansPath={plans && isAvailable(plans.screen) ? `${base}/${plans.path}` : undefined}
      />
      <div className={classes.layout}>
        <nav aria-label={t('apis.menu.label')}>
          <div className={classes.nav}>
            {GROUPS.map((group) => {
              const entries = menu.filter((entry) => entry.group === group);
              if (entries.length === 0) return null;
              return (
                <div key={group}>
                  <Text
                    size="xs"
                    fw={700}
                    c="dimmed"
                    tt="uppercase"
                    px={12}
                    mb={4}
                    className={classes.section}
                  >
                    {t(SECTIONS[group])}
                  </Text>
                  <ul className={classes.list}>
                    {entries.map((entry) => (
                      <li key={entry.path}>
                        <NavLink to={`${base}/${entry.path}`} end={entry.end} className={classes.link}>
                          {t(entry.label)}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </div>
        </nav>
        <div>
          <Outlet />
        </div>
      </div>
    </Stack>
  );
}
