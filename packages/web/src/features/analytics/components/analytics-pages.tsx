import { Button, Group, Stack, Title } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { Dashboard } from './dashboard';
import { PlatformEvents } from './platform-events';

/** `/management/apis/{apiId}/analytics?from&to&q` (api-analytics-r). */
export function ApiAnalyticsPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  return (
    <Stack gap="md">
      <Title order={2}>{t('dashboards.api.title')}</Title>
      <Dashboard scope={{ kind: 'api', id: apiId }} kind="api" />
    </Stack>
  );
}

/** `/management/applications/{applicationId}/analytics?from&to&q` (application-analytics-r), with View logs. */
export function ApplicationAnalyticsPage() {
  const { t } = useTranslation();
  const { applicationId = '' } = useParams();
  const { search } = useLocation();
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('dashboards.application.title')}</Title>
        <Button
          component={Link}
          to={`/management/applications/${encodeURIComponent(applicationId)}/logs${search}`}
          variant="default"
          leftSection={<IconFileText size={16} />}
        >
          {t('dashboards.application.viewLogs')}
        </Button>
      </Group>
      <Dashboard scope={{ kind: 'application', id: applicationId }} kind="application" />
    </Stack>
  );
}

/** `/management/platform?from&to&q` (management-platform-r): the dashboard and the events table. */
export function PlatformDashboardPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('dashboards.platform.title')}
      </Title>
      <Dashboard scope={{ kind: 'platform' }} kind="platform" />
      <PlatformEvents />
    </Stack>
  );
}
