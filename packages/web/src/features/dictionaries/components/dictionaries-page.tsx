import { Anchor, Table, Text } from '@mantine/core';
import { IconBook2 } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { DateText } from '../../../shared/ui/date-text';
import { SettingsListPage } from '../../../shared/ui/settings-list-page';
import { useDictionaries } from '../api/dictionaries';

const SETTINGS = '/management/settings/dictionaries';

/** Settings > Dictionaries (console-applications-and-settings.md 2.3): the list, with an add button. */
export function DictionariesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const dictionaries = useDictionaries();
  const rows = dictionaries.data ?? [];
  return (
    <SettingsListPage
      title={t('dictionaries.title')}
      hint={t('dictionaries.hint')}
      add={
        hasPermission(user, 'management-dictionary-c') && {
          label: t('dictionaries.add'),
          to: `${SETTINGS}/new`,
        }
      }
      loading={dictionaries.isPending}
      isEmpty={rows.length === 0}
      empty={{
        icon: <IconBook2 size={32} />,
        title: t('dictionaries.empty'),
        description: t('dictionaries.emptyHint'),
      }}
      minWidth={640}
      tableProps={{ highlightOnHover: true, stickyHeader: true }}
      head={
        <>
          <Table.Th>{t('dictionaries.columns.id')}</Table.Th>
          <Table.Th>{t('dictionaries.columns.name')}</Table.Th>
          <Table.Th>{t('dictionaries.columns.description')}</Table.Th>
          <Table.Th>{t('dictionaries.columns.type')}</Table.Th>
          <Table.Th ta="right">{t('dictionaries.columns.properties')}</Table.Th>
          <Table.Th>{t('dictionaries.columns.updatedAt')}</Table.Th>
          <Table.Th>{t('dictionaries.columns.deployedAt')}</Table.Th>
        </>
      }
      rows={rows.map((d) => (
        <Table.Tr key={d.id}>
          <Table.Td ff="monospace" fz="sm">
            {d.id}
          </Table.Td>
          <Table.Td>
            <Anchor component={Link} to={`${SETTINGS}/${encodeURIComponent(d.id)}`} fw={500}>
              {d.name}
            </Anchor>
          </Table.Td>
          <Table.Td c="dimmed">{d.description ?? ''}</Table.Td>
          <Table.Td>
            <Text size="sm">{t(`dictionaries.types.${d.type}`)}</Text>
            {d.type === 'DYNAMIC' && (
              <Text size="xs" c={d.state === 'STARTED' ? 'teal.9' : 'dimmed'}>
                {t(`dictionaries.states.${d.state}`)}
              </Text>
            )}
          </Table.Td>
          <Table.Td ta="right">{d.properties}</Table.Td>
          <Table.Td>
            <DateText value={d.updated_at} />
          </Table.Td>
          <Table.Td>
            <DateText value={d.deployed_at} />
          </Table.Td>
        </Table.Tr>
      ))}
    />
  );
}
