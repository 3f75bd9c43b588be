import {
  ActionIcon,
  Anchor,
  Badge,
  Button,
  Center,
  CopyButton,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCheck, IconCopy, IconPlus, IconTags, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
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
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('settingsTags.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settingsTags.hint')}
          </Text>
        </div>
        {hasPermission(user, 'management-tag-c') && (
          <Button component={Link} to={`${TAGS}/new`} leftSection={<IconPlus size={16} />}>
            {t('settingsTags.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {tags.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : rows.length === 0 ? (
          <EmptyState
            py={48}
            variant="light"
            icon={<IconTags size={32} />}
            title={t('settingsTags.empty')}
            description={t('settingsTags.emptyHint')}
          />
        ) : (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="sm" highlightOnHover stickyHeader>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settingsTags.columns.id')}</Table.Th>
                  <Table.Th>{t('settingsTags.columns.name')}</Table.Th>
                  <Table.Th>{t('settingsTags.columns.description')}</Table.Th>
                  <Table.Th>{t('settingsTags.columns.restrictedGroups')}</Table.Th>
                  <Table.Th w={56}>
                    <VisuallyHidden>{t('settingsTags.columns.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((tag) => (
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
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('settingsTags.delete', { name: tag.name })}
                          onClick={() => setDeleting(tag)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <DefaultEntrypoint />
      <EntrypointsTable tags={rows} />
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settingsTags.deleteTitle')}
        confirmLabel={t('settingsTags.deleteConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.id, {
            onSuccess: () => {
              notifySuccess('settingsTags.deleted', { name: deleting.name });
              setDeleting(null);
            },
          })
        }
      >
        <ConfirmText>{deleting && t('settingsTags.deleteQuestion', { name: deleting.name })}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}
