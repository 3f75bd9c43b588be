import {
  Anchor,
  Badge,
  Button,
  Group,
  Pagination,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { IconPlus, IconSearch } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { USERS_PAGE_SIZE, useUsers } from '../api/users';

/** management.settings.users (`/settings/users?q&page`): users found by name or email, 10 a page. */
export function UsersPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const [text, setText] = useState(q);
  const users = useUsers(q, page);
  const total = users.data?.page.total_elements ?? 0;
  const pages = Math.max(1, Math.ceil(total / USERS_PAGE_SIZE));

  const applySearch = useDebouncedCallback((value: string) => {
    const next = new URLSearchParams();
    if (value.trim()) next.set('q', value.trim());
    setParams(next, { replace: true });
  }, 300);
  const goTo = (n: number) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      next.set('page', String(n));
      return next;
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={1} size="h2">
            {t('settingsUsers.list.title')}
          </Title>
          <Text c="dimmed">{t('settingsUsers.list.subtitle')}</Text>
        </div>
        {hasPermission(user, 'management-user-c') && (
          <Button component={Link} to="/management/settings/users/new" leftSection={<IconPlus size={16} />}>
            {t('settingsUsers.list.add')}
          </Button>
        )}
      </Group>
      <TextInput
        type="search"
        leftSection={<IconSearch size={16} />}
        aria-label={t('settingsUsers.list.search')}
        placeholder={t('settingsUsers.list.searchPlaceholder')}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          applySearch(event.currentTarget.value);
        }}
        maw={480}
      />
      {users.isPending ? (
        <Skeleton height={320} />
      ) : total === 0 ? (
        <Paper withBorder p="xl" ta="center">
          <Text c="dimmed">
            {q ? t('settingsUsers.list.noResult', { q }) : t('settingsUsers.list.empty')}
          </Text>
        </Paper>
      ) : (
        <>
          <Table highlightOnHover verticalSpacing="sm" stickyHeader>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('settingsUsers.list.name')}</Table.Th>
                <Table.Th>{t('settingsUsers.list.email')}</Table.Th>
                <Table.Th>{t('settingsUsers.list.source')}</Table.Th>
                <Table.Th>{t('settingsUsers.list.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(users.data?.data ?? []).map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    <Group gap="xs">
                      <Anchor component={Link} to={`/management/settings/users/${encodeURIComponent(u.id)}`}>
                        {u.displayName}
                      </Anchor>
                      {u.primary_owner && (
                        <Badge size="sm" variant="light" color="violet">
                          {t('settingsUsers.primaryOwner')}
                        </Badge>
                      )}
                    </Group>
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>{u.source}</Table.Td>
                  <Table.Td>
                    <Badge size="sm" variant="light" color={u.status === 'ACTIVE' ? 'teal' : 'gray'}>
                      {t(
                        u.status === 'ACTIVE'
                          ? 'settingsUsers.status.ACTIVE'
                          : 'settingsUsers.status.PENDING',
                      )}
                    </Badge>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t('settingsUsers.list.total', { total })}
            </Text>
            {pages > 1 && (
              <Pagination
                total={pages}
                value={Math.min(page, pages)}
                onChange={goTo}
                size="sm"
                getControlProps={(control) => ({
                  'aria-label': t(`settingsUsers.list.pager.${control}`),
                })}
                getItemProps={(n) => ({ 'aria-label': t('settingsUsers.list.pager.page', { page: n }) })}
              />
            )}
          </Group>
        </>
      )}
    </Stack>
  );
}
