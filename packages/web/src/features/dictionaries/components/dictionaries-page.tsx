import {
  Anchor,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { IconBook2, IconPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { DateText } from '../../../shared/ui/date-text';
import { useDictionaries } from '../api/dictionaries';

const SETTINGS = '/management/settings/dictionaries';

/** Settings > Dictionaries (console-applications-and-settings.md 2.3): the list, with an add button. */
export function DictionariesPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const dictionaries = useDictionaries();
  const rows = dictionaries.data ?? [];
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('dictionaries.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('dictionaries.hint')}
          </Text>
        </div>
        {hasPermission(user, 'management-dictionary-c') && (
          <Button component={Link} to={`${SETTINGS}/new`} leftSection={<IconPlus size={16} />}>
            {t('dictionaries.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {dictionaries.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : rows.length === 0 ? (
          <EmptyState
            py={48}
            variant="light"
            icon={<IconBook2 size={32} />}
            title={t('dictionaries.empty')}
            description={t('dictionaries.emptyHint')}
          />
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" highlightOnHover stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('dictionaries.columns.id')}</Table.Th>
                  <Table.Th>{t('dictionaries.columns.name')}</Table.Th>
                  <Table.Th>{t('dictionaries.columns.description')}</Table.Th>
                  <Table.Th>{t('dictionaries.columns.type')}</Table.Th>
                  <Table.Th ta="right">{t('dictionaries.columns.properties')}</Table.Th>
                  <Table.Th>{t('dictionaries.columns.updatedAt')}</Table.Th>
                  <Table.Th>{t('dictionaries.columns.deployedAt')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((d) => (
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
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
    </Stack>
  );
}
