import {
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { DateText } from '../../shared/ui/date-text';
import { useSession } from '../../shared/session/current-user';
import { isAdmin } from '../../shared/session/permissions';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { useFrameApi } from '../apis/api/get-api';
import type { HealthLog } from './health-api';
import { LOG_PAGE_SIZES, STATE_NAMES, useHealthLogs, useHealthMetrics } from './health-api';
import { HealthTable } from './health-bars';

/** Dark enough for white text at AA contrast: DOWN, TRANSITIONALLY_DOWN, TRANSITIONALLY_UP, UP. */
const STATE_COLOURS = ['#b02525', '#9c3d00', '#0b6b50', '#1e6b30'];

/** A state badge: UP, TRANSITIONALLY_UP, TRANSITIONALLY_DOWN, DOWN. */
export function StateBadge({ state }: { state: number }) {
  const { t } = useTranslation();
  const name = STATE_NAMES[state] ?? 'DOWN';
  return (
    <Badge
      color={STATE_COLOURS[state] ?? 'gray.8'}
      variant="filled"
      tt="none"
      styles={{
        root: { height: 'auto', paddingBlock: 2 },
        label: { whiteSpace: 'normal', overflow: 'visible' },
      }}
    >
      {t(`apiHealth.states.${name}`)}
    </Badge>
  );
}

/** The latest checks, or the state changes only, a page at a time, each linked to its detail. */
function HealthLogs({ apiId, base }: { apiId: string; base: string }) {
  const { t } = useTranslation();
  const [transition, setTransition] = useState(false);
  const [page, setPage] = useState(1);
  const [size, setSize] = useState(10);
  const { data } = useHealthLogs(apiId, { page, size, transition });
  const gateway = (log: HealthLog) => data?.metadata[log.gateway]?.hostname ?? log.gateway;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h4">
            {transition ? t('apiHealth.logs.transitions') : t('apiHealth.logs.latest')}
          </Title>
          <Switch
            label={t('apiHealth.logs.onlyTransitions')}
            checked={transition}
            onChange={(e) => {
              setTransition(e.currentTarget.checked);
              setPage(1);
            }}
          />
        </Group>
        <Table.ScrollContainer minWidth={720}>
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiHealth.logs.date')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.endpoint')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.gateway')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.state')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.responseTime')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.status')}</Table.Th>
                <Table.Th>{t('apiHealth.logs.detail')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data?.logs.map((log) => (
                <Table.Tr key={log.id}>
                  <Table.Td>
                    <DateText value={log.timestamp} />
                  </Table.Td>
                  <Table.Td>{log.endpoint}</Table.Td>
                  <Table.Td>{gateway(log)}</Table.Td>
                  <Table.Td>
                    <StateBadge state={log.state} />
                  </Table.Td>
                  <Table.Td>{t('apiHealth.ms', { value: log.responseTime })}</Table.Td>
                  <Table.Td>
                    {log.response.status ?? '—'}
                    {!log.success && (
                      <Text span size="xs" c="red.9" ml={6}>
                        {t('apiHealth.logs.failed')}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>
                    <Anchor
                      component={Link}
                      to={`${base}/proxy/healthcheck/logs/${encodeURIComponent(log.id)}`}
                      size="sm"
                    >
                      {t('apiHealth.logs.view')}
                      <VisuallyHidden> {log.endpoint}</VisuallyHidden>
                    </Anchor>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {data && data.logs.length === 0 && (
          <Text c="dimmed" ta="center" p="md">
            {t('apiHealth.logs.empty')}
          </Text>
        )}
        {data && data.total > 0 && (
          <Group justify="space-between">
            <Select
              label={t('apiHealth.logs.pageSize')}
              w={140}
              allowDeselect={false}
              data={LOG_PAGE_SIZES.map(String)}
              value={String(size)}
              onChange={(v) => {
                setSize(Number(v ?? 10));
                setPage(1);
              }}
            />
            <Pagination
              total={Math.ceil(data.total / size)}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': t(`audit.pager.${control}`) })}
            />
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * `/proxy/healthcheck` (console-apis.md 2.5): availability and response time per endpoint over the last
 * minute, hour, day, week and month (per gateway for administrators), the latest checks and the
 * transitions; refreshed every 10 s.
 */
export function HealthDashboardPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const { user } = useSession();
  const admin = isAdmin(user);
  const permissions = useApiPermissions(apiId);
  const base = `/management/apis/${encodeURIComponent(apiId)}`;
  const availability = useHealthMetrics(apiId, 'availability', 'endpoint');
  const responseTime = useHealthMetrics(apiId, 'response_time', 'endpoint');
  const gwAvailability = useHealthMetrics(apiId, 'availability', 'gateway', admin);
  const gwResponseTime = useHealthMetrics(apiId, 'response_time', 'gateway', admin);
  const endpointName = (key: string, meta: Record<string, string> | undefined) =>
    meta?.target ? `${key} (${meta.target})` : key;
  const gatewayName = (key: string, meta: Record<string, string> | undefined) =>
    meta?.hostname ? `${meta.hostname}${meta.ip ? ` (${meta.ip})` : ''}` : key;
  const configured =
    api.services['health-check']?.enabled === true ||
    api.proxy.groups.some((g) =>
      g.endpoints.some((e) => e.healthcheck?.inherit === false && e.healthcheck.enabled),
    );
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('apiHealth.dashboard.title')}
        </Title>
        <Button component={Link} to={`${base}/proxy/healthcheck/configure`} variant="light">
          {permissions.has('api-health-c') || permissions.has('api-health-u')
            ? t('apiHealth.dashboard.configure')
            : t('apiHealth.dashboard.viewConfiguration')}
        </Button>
      </Group>
      {!configured && (
        <Text size="sm" c="dimmed">
          {t('apiHealth.dashboard.notConfigured')}
        </Text>
      )}
      <Paper withBorder p="md">
        <Stack gap="lg">
          <HealthTable
            metrics={availability.data}
            kind="availability"
            caption={t('apiHealth.dashboard.availability')}
            name={endpointName}
            withGlobal
          />
          <HealthTable
            metrics={responseTime.data}
            kind="response_time"
            caption={t('apiHealth.dashboard.responseTime')}
            name={endpointName}
            withGlobal
          />
        </Stack>
      </Paper>
      {admin && (
        <Paper withBorder p="md">
          <Stack gap="lg">
            <HealthTable
              metrics={gwAvailability.data}
              kind="availability"
              caption={t('apiHealth.dashboard.gatewayAvailability')}
              name={gatewayName}
              withGlobal={false}
            />
            <HealthTable
              metrics={gwResponseTime.data}
              kind="response_time"
              caption={t('apiHealth.dashboard.gatewayResponseTime')}
              name={gatewayName}
              withGlobal={false}
            />
          </Stack>
        </Paper>
      )}
      <HealthLogs apiId={apiId} base={base} />
    </Stack>
  );
}
