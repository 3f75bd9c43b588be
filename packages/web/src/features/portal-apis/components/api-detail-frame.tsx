import { Box, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation, useParams } from 'react-router';
import { isAvailable } from '../../../app/screens';
import { useConfig } from '../../../shared/config/config-context';
import { isHttpError } from '../../../shared/http';
import { useSession } from '../../../shared/session/current-user';
import { PageLoader } from '../../../shared/ui/page-loader';
import { usePortalApi } from '../api/portal-api';
import { ApiDetailHeader } from './api-detail-header';
import classes from './api-detail.module.css';

/** Whether the element has scrolled under the top bar (the navigation then sticks with the API's name). */
function useScrolledPast() {
  // A callback ref: the element appears only once the API is loaded.
  const [element, sentinel] = useState<HTMLDivElement | null>(null);
  const [past, setPast] = useState(false);
  useEffect(() => {
    if (!element || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(([entry]) => setPast(!entry!.isIntersecting), {
      rootMargin: '-64px 0px 0px 0px',
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, [element]);
  return { sentinel, past };
}

/** A private API the visitor may not see, or no API at all: the same answer, so nothing leaks. */
function ApiNotFound() {
  const { t } = useTranslation();
  const { user } = useSession();
  const location = useLocation();
  return (
    <Container size="sm" py={64}>
      <Paper withBorder radius="md" p="xl">
        <Stack align="center" gap="sm" ta="center">
          <IconLock size={36} stroke={1.5} aria-hidden />
          <Title order={1} size="h3">
            {t('portalApi.notFound.title')}
          </Title>
          <Text c="dimmed">{t('portalApi.notFound.text')}</Text>
          <Group gap="sm" mt="sm">
            {!user && (
              <Button
                component={Link}
                to={`/login?redirectUri=${encodeURIComponent(location.pathname)}`}
                variant="filled"
              >
                {t('portalApi.notFound.signIn')}
              </Button>
            )}
            <Button component={Link} to="/" variant="default">
              {t('portalApi.notFound.home')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Container>
  );
}

/**
 * `/apis/{apiId}/…` (portal-and-platform.md: API detail): the API's header, its navigation (Overview,
 * Documentation, Support when enabled, Subscribe) that sticks under the top bar on scroll with the API's
 * name, and the page. Links go only to screens this build has.
 */
export function ApiDetailFrame() {
  const { t } = useTranslation();
  const config = useConfig();
  const { apiId = '' } = useParams();
  const api = usePortalApi(apiId);
  const { sentinel, past } = useScrolledPast();
  const { user } = useSession();

  if (api.isError) {
    if (isHttpError(api.error) && [401, 403, 404].includes(api.error.status)) return <ApiNotFound />;
    return (
      <Container size="lg" py="xl" role="alert">
        <Text fw={600}>{t('errors.unexpected')}</Text>
      </Container>
    );
  }
  if (!api.data) return <PageLoader />;

  const base = `/apis/${encodeURIComponent(apiId)}`;
  const tabs = [
    { to: `${base}/detail`, label: t('portalApi.nav.overview'), shown: isAvailable('portal.api.detail') },
    { to: `${base}/pages`, label: t('portalApi.nav.documentation'), shown: isAvailable('portal.api.pages') },
    {
      to: `${base}/support`,
      label: t('portalApi.nav.support'),
      shown: config.portal.support.enabled && isAvailable('portal.api.support'),
    },
  ].filter((tab) => tab.shown);

  return (
    <>
      <ApiDetailHeader api={api.data} />
      <div ref={sentinel} />
      <Box className={classes.sticky} data-stuck={past || undefined}>
        <Container size="lg">
          <Group justify="space-between" wrap="nowrap" h={54}>
            <Group gap="lg" wrap="nowrap" style={{ minWidth: 0 }}>
              {past && (
                <Text fw={700} truncate className={classes.stuckName} aria-hidden>
                  {api.data.name}
                </Text>
              )}
              <nav aria-label={t('portalApi.nav.label')}>
                <ul className={classes.tabs}>
                  {tabs.map((tab) => (
                    <li key={tab.to}>
                      <NavLink to={tab.to} className={classes.tab}>
                        {tab.label}
                      </NavLink>
                    </li>
                  ))}
                </ul>
              </nav>
            </Group>
            {/* Anonymous visitors see no subscribe link (portal-and-platform.md 6). */}
            {!!user && isAvailable('portal.api.subscribe') && (
              <Button component={Link} to={`${base}/subscribe`}>
                {t('portalApi.nav.subscribe')}
              </Button>
            )}
          </Group>
        </Container>
      </Box>
      {/* The documentation tree sticks under the top bar and this navigation. */}
      <Container size="lg" py="xl" className={classes.body}>
        <Outlet context={api.data} />
      </Container>
    </>
  );
}
