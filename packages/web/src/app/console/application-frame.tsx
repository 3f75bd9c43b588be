import { Anchor, Breadcrumbs, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Navigate, Outlet, useLocation, useParams } from 'react-router';
import { useApplication } from '../../features/applications/api/applications';
import { ApplicationHeader } from '../../features/applications/components/application-header';
import { isHttpError } from '../../shared/http';
import { useApplicationPermissions } from '../../shared/session/application-permissions';
import { PageLoader } from '../../shared/ui/page-loader';
import { APPLICATION_MENU, applicationPageNeeds } from './application-menu';
import classes from './api-frame.module.css';

/**
 * `/management/applications/{applicationId}`: loads the application and the user's permissions on it,
 * then shows its header, its menu (general, subscriptions, members) and the page. A page whose
 * permission the user lacks gives way to the first one they may see.
 */
export function ApplicationFrame() {
  const { t } = useTranslation();
  const { applicationId = '' } = useParams();
  const location = useLocation();
  const application = useApplication(applicationId);
  const permissions = useApplicationPermissions(applicationId);

  if (application.isError) {
    return (
      <Stack gap="sm" py="xl" role="alert">
        <Text fw={600}>
          {isHttpError(application.error) && application.error.status === 404
            ? t('applications.frame.notFound')
            : t('errors.unexpected')}
        </Text>
        <Anchor component={Link} to="/management/applications">
          {t('applications.frame.backToList')}
        </Anchor>
      </Stack>
    );
  }
  if (!application.data || permissions.isPending) return <PageLoader />;

  const base = `/management/applications/${encodeURIComponent(applicationId)}`;
  const page = location.pathname.slice(base.length + 1).split('/')[0] ?? '';
  const menu = APPLICATION_MENU.filter((entry) => permissions.hasAny(entry.anyOf));
  if (!permissions.hasAny(applicationPageNeeds(page))) {
    const first = menu[0];
    return first ? (
      <Navigate to={`${base}/${first.path}`} replace />
    ) : (
      <Navigate to="/management/applications" replace />
    );
  }

  return (
    <Stack gap="md" className={classes.frame}>
      <Breadcrumbs>
        <Anchor component={Link} to="/management/applications" size="sm">
          {t('applications.list.title')}
        </Anchor>
        <Text size="sm">{application.data.name}</Text>
      </Breadcrumbs>
      <ApplicationHeader application={application.data} />
      <div className={classes.layout}>
        <nav aria-label={t('applications.menu.label')} className={classes.nav}>
          <ul className={classes.list}>
            {menu.map((entry) => (
              <li key={entry.path}>
                <NavLink
                  to={entry.path ? `${base}/${entry.path}` : base}
                  end={entry.path === ''}
                  className={classes.link}
                >
                  {t(entry.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <div>
          <Outlet />
        </div>
      </div>
    </Stack>
  );
}
