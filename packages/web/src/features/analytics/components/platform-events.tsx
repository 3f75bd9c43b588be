import { Card, Group, MultiSelect, Pagination, Select, Stack, Table, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Anchor } from '@mantine/core';
import { useApis } from '../../apis/api/get-apis';
import { usePlatformEvents } from '../api/analytics';
import { useDashboardParams } from './dashboard';

/** Event types of the platform dashboard's events table (Gravitee's lifecycle events of APIs). */
export const EVENT_TYPES = ['START_API', 'STOP_API', 'PUBLISH_API', 'UNPUBLISH_API'] as const;
const PAGE_SIZE = 10;

const apiName = (p: Record<string, string>) =>
  p.api_name ? (p.api_version ? `${p.api_name} (${p.api_version})` : p.api_name) : '-';

/** The events of the APIs the user may see over the dashboard's period, by type and API, 10 a page. */
export function PlatformEvents() {
  const { t } = useTranslation();
  const { window } = useDashboardParams();
  const [types, setTypes] = useState<string[]>([...EVENT_TYPES]);
  const [api, setApi] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const apis = useApis('', 'name');
  const events = usePlatformEvents({
    type: types.join(','),
    ...(api ? { api_ids: api } : {}),
    from: window.from,
    to: window.to,
    page: page - 1,
    size: PAGE_SIZE,
  });
  const total = events.data?.totalElements ?? 0;
  const rows = events.data?.content ?? [];
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="platform-events-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="platform-events-title">
          {t('dashboards.events.title')}
        </Title>
        <Group align="flex-end" gap="sm">
          <MultiSelect
            label={t('dashboards.events.type')}
            data={EVENT_TYPES.map((type) => ({ value: type, label: t(`dashboards.events.types.${type}`) }))}
            value={types}
            onChange={(v) => {
              setTypes(v);
              setPage(1);
            }}
            w={360}
          />
          <Select
            label={t('dashboards.events.api')}
            placeholder={t('dashboards.events.allApis')}
            data={(apis.data ?? []).map((a) => ({ value: a.id, label: `${a.name} (${a.version})` }))}
            value={api}
            onChange={(v) => {
              setApi(v);
              setPage(1);
            }}
            searchable
            clearable
            w={260}
          />
        </Group>
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" py="md">
            {t('dashboards.events.empty')}
          </Text>
        ) : (
          <Table striped aria-label={t('dashboards.events.title')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('dashboards.events.date')}</Table.Th>
                <Table.Th>{t('dashboards.events.type')}</Table.Th>
                <Table.Th>{t('dashboards.events.api')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((e) => (
                <Table.Tr key={e.id}>
                  <Table.Td>{dayjs(e.created_at).format('YYYY-MM-DD HH:mm:ss')}</Table.Td>
                  <Table.Td>
                    {(EVENT_TYPES as readonly string[]).includes(e.type)
                      ? t(`dashboards.events.types.${e.type as (typeof EVENT_TYPES)[number]}`)
                      : e.type}
                  </Table.Td>
                  <Table.Td>
                    {e.properties.api_id ? (
                      <Anchor
                        component={Link}
                        to={`/management/apis/${encodeURIComponent(e.properties.api_id)}/analytics`}
                      >
                        {apiName(e.properties)}
                      </Anchor>
                    ) : (
                      apiName(e.properties)
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
        {total > PAGE_SIZE && (
          <Group justify="center">
            <Pagination
              total={Math.ceil(total / PAGE_SIZE)}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': t(`dashboards.pager.${control}`) })}
              getItemProps={(p) => ({ 'aria-label': t('dashboards.pager.page', { page: p }) })}
            />
          </Group>
        )}
      </Stack>
    </Card>
  );
}
