import {
  ActionIcon,
  Anchor,
  Badge,
  CopyButton,
  Group,
  Table,
  Text,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconTags } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import {
  DeleteConfirmDialog,
  RowDeleteButton,
  SettingsListPage,
} from '../../../shared/ui/settings-list-page';
import type { Tag } from '../api/tags';
import { useDeleteTag, useGroups, useTags } from '../api/tags';
import { DefaultEntrypoint } from './default-entrypoint';
import { EntrypointsTable } from './entrypoints-table';

export const TAGS = '/management/settings/tags';

/**
 * Settings > Sharding Tags (console-applications-and-settings.md 2.3): the tags (ID to copy, name,
 * description, restricted groups, delete), the default configuration and the entrypoint mappings.
 */
export function TagsPage() {
  const { t } = useTranslation();
  const { user } = useSession();
  const tags = useTags();
  const groups = useGroups();
  const remove = useDeleteTag();
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const groupName = new Map((groups.data ?? []).map((g) => [g.id, g.name]));
  const rows = tags.data ?? [];

  return (
    <SettingsListPage
      title={t('settingsTags.title')}
      hint={t('settingsTags.hint')}
      add={hasPermission(user, 'management-tag-c') && { label: t('settingsTags.add'), to: `${TAGS}/new` }}
      loading={tags.isPending}
      isEmpty={rows.length === 0}
      empty={{
        icon: <IconTags size={32} />,
        title: t('settingsTags.empty'),
        description: t('settingsTags.emptyHint'),
      }}
      minWidth={520}
      tableProps={{ highlightOnHover: true, stickyHeader: true }}
      head={
        <>
          <Table.Th>{t('settingsTags.columns.id')}</Table.Th>
          <Table.Th>{t('settingsTags.columns.name')}</Table.Th>
          <Table.Th>{t('settingsTags.columns.description')}</Table.Th>
          <Table.Th>{t('settingsTags.columns.restrictedGroups')}</Table.Th>
          <Table.Th w={56}>
            <VisuallyHidden>{t('settingsTags.columns.actions')}</VisuallyHidden>
          </Table.Th>
        </>
      }
      rows={rows.map((tag) => (
        <Table.Tr key={tag.id}>
          <Table.Td>
            <Group gap={4} wrap="nowrap">
              <Text ff="monospace" size="sm">
                {tag.id}
              </Text>
              <CopyButton value={tag.id}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t('settingsTags.copied') : t('settingsTags.copy')}>
                    <ActionIcon
                      variant="subtle"
                      color={copied ? 'teal' : 'gray'}
                      aria-label={t('settingsTags.copyId', { id: tag.id })}
                      onClick={copy}
                    >
                      {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
          </Table.Td>
          <Table.Td>
            <Anchor component={Link} to={`${TAGS}/${encodeURIComponent(tag.id)}`} fw={500}>
              {tag.name}
            </Anchor>
          </Table.Td>
          <Table.Td c="dimmed">{tag.description ?? ''}</Table.Td>
          <Table.Td>
            {tag.restricted_groups.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('settingsTags.unrestricted')}
              </Text>
            ) : (
              <Group gap={4}>
                {tag.restricted_groups.map((g) => (
                  <Badge key={g} variant="light" color="grape">
                    {groupName.get(g) ?? g}
                  </Badge>
                ))}
              </Group>
            )}
          </Table.Td>
          <Table.Td>
            {hasPermission(user, 'management-tag-d') && (
              <RowDeleteButton
                label={t('settingsTags.delete', { name: tag.name })}
                onClick={() => setDeleting(tag)}
              />
            )}
          </Table.Td>
        </Table.Tr>
      ))}
    >
      <DefaultEntrypoint />
      <EntrypointsTable tags={rows} />
      <DeleteConfirmDialog
        item={deleting}
        question={(row) => t('settingsTags.deleteQuestion', { name: row.name })}
        title={t('settingsTags.deleteTitle')}
        confirmLabel={t('settingsTags.deleteConfirm')}
        remove={remove}
        idOf={(row) => row.id}
        done="settingsTags.deleted"
        onClose={() => setDeleting(null)}
      />
    </SettingsListPage>
  );
}
