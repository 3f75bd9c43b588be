import { Paper, Table } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../../shared/ui/date-text';
import type { SubscriptionItem } from '../api/types';
import { SubscriptionStatusBadge } from './status-badge';

export interface LeadingColumn {
  header: string;
  cell: (subscription: SubscriptionItem) => ReactNode;
}

/**
 * A page of subscriptions: the columns the side chooses (plan and application, or API and plan), then
 * created, processed, start and end dates and the status (the reason as tooltip).
 */
export function SubscriptionsTable({
  rows,
  leading,
  busy,
}: {
  rows: SubscriptionItem[];
  leading: LeadingColumn[];
  busy: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md">
      <Table.ScrollContainer minWidth={760}>
        <Table verticalSpacing="sm" highlightOnHover aria-busy={busy}>
          <Table.Thead>
            <Table.Tr>
              {leading.map((column) => (
                <Table.Th key={column.header}>{column.header}</Table.Th>
              ))}
              <Table.Th>{t('subscriptions.columns.createdAt')}</Table.Th>
              <Table.Th>{t('subscriptions.columns.processedAt')}</Table.Th>
              <Table.Th>{t('subscriptions.columns.startingAt')}</Table.Th>
              <Table.Th>{t('subscriptions.columns.endingAt')}</Table.Th>
              <Table.Th>{t('subscriptions.columns.status')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((s) => (
              <Table.Tr key={s.id}>
                {leading.map((column) => (
                  <Table.Td key={column.header}>{column.cell(s)}</Table.Td>
                ))}
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <DateText value={s.created_at} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <DateText value={s.processed_at} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <DateText value={s.starting_at} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <DateText value={s.ending_at} />
                </Table.Td>
                <Table.Td>
                  <SubscriptionStatusBadge status={s.status} reason={s.reason} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
