import {
  ActionIcon,
  Checkbox,
  Group,
  Pagination,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DateTimeField } from '../../../shared/ui/date-time-field';
import type { AuditEntry, AuditPage as AuditPageData } from '../api/audit';
import { useAudit, useAuditEvents, useAuditReferences } from '../api/audit';
import { PatchDiff } from './patch-diff';

export const AUDIT_PAGE_SIZE = 10;

interface Filters {
  event: string | null;
  application: string | null;
  api: string | null;
  from: number | null;
  to: number | null;
  mgmt: boolean;
}

const NO_FILTER: Filters = { event: null, application: null, api: null, from: null, to: null, mgmt: false };

function referenceName(entry: AuditEntry, metadata: AuditPageData['metadata'], platform: string): string {
  if (entry.referenceType === 'ENVIRONMENT' || entry.referenceType === 'ORGANIZATION') return platform;
  return metadata[`${entry.referenceType}:${entry.referenceId}:name`] ?? entry.referenceId;
}

function AuditRows({ data }: { data: AuditPageData }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <Table.Tbody>
      {data.content.map((entry) => {
        const expanded = open.has(entry.id);
        const hasPatch = !!entry.patch && entry.patch !== '[]';
        return (
          <Fragment key={entry.id}>
            <Table.Tr data-audit-event={entry.event}>
              <Table.Td>
                {hasPatch && (
                  <ActionIcon
                    variant="subtle"
                    aria-expanded={expanded}
                    aria-label={t(expanded ? 'audit.hideChanges' : 'audit.showChanges')}
                    onClick={() => toggle(entry.id)}
                  >
                    {expanded ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
                  </ActionIcon>
                )}
              </Table.Td>
              <Table.Td>{dayjs(entry.createdAt).format('YYYY-MM-DD HH:mm:ss')}</Table.Td>
              <Table.Td>
                {entry.user ? (data.metadata[`USER:${entry.user}:name`] ?? entry.user) : '—'}
              </Table.Td>
              <Table.Td>
                <Text size="sm">{referenceName(entry, data.metadata, t('audit.platform'))}</Text>
                <Text size="xs" c="dimmed">
                  {entry.referenceType}
                </Text>
              </Table.Td>
              <Table.Td ff="monospace" fz="sm">
                {entry.event}
              </Table.Td>
            </Table.Tr>
            {expanded && (
              <Table.Tr>
                <Table.Td />
                <Table.Td colSpan={4}>
                  <PatchDiff patch={entry.patch} />
                </Table.Td>
              </Table.Tr>
            )}
          </Fragment>
        );
      })}
    </Table.Tbody>
  );
}

/**
 * The audit trail: the platform's (management.audit, with application, API and portal-only filters)
 * or one API's (`/management/apis/{apiId}/audit`), paged by 10, each change as a readable diff.
 */
export function AuditScreen({ apiId }: { apiId?: string }) {
  const { t } = useTranslation();
  const platform = !apiId;
  const [filters, setFilters] = useState<Filters>(NO_FILTER);
  const [page, setPage] = useState(1);
  const events = useAuditEvents();
  const references = useAuditReferences(platform);
  const audit = useAudit(
    {
      page,
      size: AUDIT_PAGE_SIZE,
      event: filters.event ?? undefined,
      application: filters.application ?? undefined,
      api: filters.api ?? undefined,
      mgmt: filters.mgmt,
      from: filters.from ?? undefined,
      to: filters.to ?? undefined,
    },
    apiId,
  );
  const change = (patch: Partial<Filters>) => {
    setFilters((current) => ({ ...current, ...patch }));
    setPage(1);
  };
  const options = (list: { id: string; name: string }[] | undefined) =>
    (list ?? []).map((item) => ({ value: item.id, label: item.name }));
  const data = audit.data;
  return (
    <Stack gap="lg">
      <Title order={platform ? 1 : 2} size="h2">
        {t('audit.title')}
      </Title>
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: platform ? 3 : 3 }}>
          <Select
            label={t('audit.filters.event')}
            data={events.data ?? []}
            value={filters.event}
            onChange={(event) => change({ event })}
            searchable
            clearable
          />
          {platform && (
            <Select
              label={t('audit.filters.application')}
              data={options(references.data?.applications)}
              value={filters.application}
              onChange={(application) => change({ application })}
              disabled={filters.mgmt}
              searchable
              clearable
            />
          )}
          {platform && (
            <Select
              label={t('audit.filters.api')}
              data={options(references.data?.apis)}
              value={filters.api}
              onChange={(api) => change({ api })}
              disabled={filters.mgmt}
              searchable
              clearable
            />
          )}
          <DateTimeField
            label={t('audit.filters.from')}
            value={filters.from}
            onChange={(from) => change({ from })}
            max={filters.to ?? undefined}
          />
          <DateTimeField
            label={t('audit.filters.to')}
            value={filters.to}
            onChange={(to) => change({ to })}
            min={filters.from ?? undefined}
            error={
              filters.from !== null && filters.to !== null && filters.from > filters.to
                ? t('audit.filters.startAfterEnd')
                : undefined
            }
          />
        </SimpleGrid>
        {platform && (
          <Checkbox
            mt="md"
            label={t('audit.filters.portalOnly')}
            checked={filters.mgmt}
            onChange={(e) => change({ mgmt: e.currentTarget.checked, api: null, application: null })}
          />
        )}
      </Paper>
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={700}>
          <Table aria-label={t('audit.title')} verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th w={48}>
                  <VisuallyHidden>{t('audit.changes')}</VisuallyHidden>
                </Table.Th>
                <Table.Th>{t('audit.columns.date')}</Table.Th>
                <Table.Th>{t('audit.columns.user')}</Table.Th>
                <Table.Th>{t('audit.columns.reference')}</Table.Th>
                <Table.Th>{t('audit.columns.event')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            {data && <AuditRows data={data} />}
          </Table>
        </Table.ScrollContainer>
        {data && data.content.length === 0 && (
          <Text c="dimmed" ta="center" p="lg">
            {t('audit.empty')}
          </Text>
        )}
      </Paper>
      {data && data.totalElements > AUDIT_PAGE_SIZE && (
        <Group justify="flex-end">
          <Pagination
            total={Math.ceil(data.totalElements / AUDIT_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': t(`audit.pager.${control}`) })}
          />
        </Group>
      )}
    </Stack>
  );
}

/** management.audit (`/management/audit`). */
export function PlatformAuditPage() {
  return <AuditScreen />;
}

/** The API's audit (`/management/apis/{apiId}/audit`, api-audit-r). */
export function ApiAuditPage() {
  const { apiId = '' } = useParams();
  return <AuditScreen apiId={apiId} />;
}
