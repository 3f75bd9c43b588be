import {
  ActionIcon,
  Alert,
  Anchor,
  Breadcrumbs,
  Button,
  Group,
  Menu,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconDownload,
  IconFolder,
  IconFolderSymlink,
  IconHome,
  IconPencil,
  IconPlus,
  IconTrash,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { DocPage, PageType } from '../api/pages';
import {
  childrenOf,
  folderPath,
  isFolderPage,
  newPageChoices,
  useCreatePage,
  useDeletePage,
  usePages,
  usePatchPage,
} from '../api/pages';
import { useFetchPages } from '../api/fetchers';
import { useDocsScope } from './docs-scope';
import { MoveDialog, NameDialog } from './page-dialogs';

type Dialog =
  | { kind: 'newFolder'; type: 'FOLDER' | 'ROOT' }
  | { kind: 'rename'; page: DocPage }
  | { kind: 'move'; page: DocPage }
  | { kind: 'remove'; page: DocPage };

/**
 * management.apis.detail.portal.documentation (`/management/apis/{apiId}/documentation?parent=`): the
 * pages of one folder with the folder breadcrumb (the root shown as ~); drafts in italic grey; publish,
 * reorder, move, rename and remove for who may update; a new page by type.
 */
export function PagesListPage() {
  const { t } = useTranslation();
  const scope = useDocsScope();
  const apiId = scope.ref;
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const parent = params.get('parent') || null;
  const canCreate = scope.can('c');
  const canUpdate = scope.can('u');
  const canDelete = scope.can('d');
  const pages = usePages(apiId);
  const create = useCreatePage(apiId);
  const patch = usePatchPage(apiId);
  const remove = useDeletePage(apiId);
  const fetchAll = useFetchPages(apiId);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const all = pages.data ?? [];
  const rows = childrenOf(all, parent);
  const path = folderPath(all, parent);
  const folderLink = (id: string | null) => (id ? `?parent=${encodeURIComponent(id)}` : '.');
  const close = () => setDialog(null);

  const newPage = (type: PageType) => {
    if (type === 'FOLDER' || type === 'ROOT') setDialog({ kind: 'newFolder', type });
    else navigate(`new?type=${type}${parent ? `&parent=${encodeURIComponent(parent)}` : ''}`);
  };
  const update = (
    page: DocPage,
    changes: Parameters<typeof patch.mutate>[0],
    message: Parameters<typeof notifySuccess>[0],
  ) =>
    patch.mutate(
      { ...changes, id: page.id },
      {
        onSuccess: () => {
          notifySuccess(message, { name: page.name });
          close();
        },
      },
    );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('pages.list.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {scope.portal ? t('pages.list.portalHint') : t('pages.list.hint')}
          </Text>
        </div>
        <Group gap="sm">
          {canUpdate && all.some((p) => p.source?.type) && (
            <Button
              variant="default"
              loading={fetchAll.isPending}
              onClick={() =>
                fetchAll.mutate(undefined, { onSuccess: () => notifySuccess('pages.list.fetched') })
              }
            >
              {t('pages.list.fetchAll')}
            </Button>
          )}
          {canCreate && (
            <Button component={Link} to="import" variant="default" leftSection={<IconDownload size={16} />}>
              {t('pages.import.button')}
            </Button>
          )}
          {canCreate && (
            <Menu position="bottom-end">
              <Menu.Target>
                <Button leftSection={<IconPlus size={16} />}>{t('pages.list.add')}</Button>
              </Menu.Target>
              <Menu.Dropdown>
                {newPageChoices(all, parent).map(({ type, disabled }) => (
                  <Menu.Item key={type} disabled={disabled} onClick={() => newPage(type)}>
                    {t(`pages.types.${type}`)}
                    {disabled && (
                      <Text size="xs" c="dimmed">
                        {t('pages.list.rootExists')}
                      </Text>
                    )}
                  </Menu.Item>
                ))}
              </Menu.Dropdown>
            </Menu>
          )}
        </Group>
      </Group>
      <nav aria-label={t('pages.list.breadcrumb')}>
        <Breadcrumbs>
          {[null, ...path].map((folder, index) =>
            index === path.length ? (
              <Text key={folder?.id ?? 'root'} fw={600} aria-current="page">
                {folder?.name ?? '~'}
              </Text>
            ) : (
              <Anchor key={folder?.id ?? 'root'} component={Link} to={folderLink(folder?.id ?? null)}>
                {folder?.name ?? '~'}
              </Anchor>
            ),
          )}
        </Breadcrumbs>
      </nav>
      {pages.isSuccess && rows.length === 0 ? (
        <Alert variant="light" title={t('pages.list.empty')}>
          {canCreate ? t('pages.list.emptyHint') : t('pages.list.emptyReadOnly')}
        </Alert>
      ) : (
        <Table highlightOnHover stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('pages.list.name')}</Table.Th>
              <Table.Th>{t('pages.list.type')}</Table.Th>
              <Table.Th>{t('pages.list.published')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('pages.list.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((page, index) => {
              const folder = isFolderPage(page);
              return (
                <Table.Tr key={page.id} data-draft={!page.published || undefined}>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {folder && <IconFolder size={16} aria-hidden />}
                      {page.homepage && (
                        <Tooltip label={t('pages.list.homepage')}>
                          <IconHome size={16} aria-label={t('pages.list.homepage')} />
                        </Tooltip>
                      )}
                      <Anchor
                        component={Link}
                        to={folder ? folderLink(page.id) : page.id}
                        fs={page.published ? undefined : 'italic'}
                        c={page.published ? undefined : 'dimmed'}
                      >
                        {page.name}
                      </Anchor>
                    </Group>
                  </Table.Td>
                  <Table.Td>{t(`pages.types.${page.type}`)}</Table.Td>
                  <Table.Td>
                    <Switch
                      checked={page.published}
                      disabled={!canUpdate || patch.isPending}
                      aria-label={t('pages.list.publishToggle', { name: page.name })}
                      onChange={(event) =>
                        update(
                          page,
                          { id: page.id, published: event.currentTarget.checked },
                          event.currentTarget.checked
                            ? 'pages.list.publishedDone'
                            : 'pages.list.unpublishedDone',
                        )
                      }
                    />
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      {canUpdate && index > 0 && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('pages.list.up', { name: page.name })}
                          onClick={() =>
                            update(page, { id: page.id, order: page.order - 1 }, 'pages.list.reordered')
                          }
                        >
                          <IconArrowUp size={16} />
                        </ActionIcon>
                      )}
                      {canUpdate && index < rows.length - 1 && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('pages.list.down', { name: page.name })}
                          onClick={() =>
                            update(page, { id: page.id, order: page.order + 1 }, 'pages.list.reordered')
                          }
                        >
                          <IconArrowDown size={16} />
                        </ActionIcon>
                      )}
                      {canUpdate && folder && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('pages.list.rename', { name: page.name })}
                          onClick={() => setDialog({ kind: 'rename', page })}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      )}
                      {canUpdate && !folder && (
                        <ActionIcon
                          component={Link}
                          to={`${page.id}/edit`}
                          variant="subtle"
                          aria-label={t('pages.list.edit', { name: page.name })}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      )}
                      {canUpdate && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('pages.list.move', { name: page.name })}
                          onClick={() => setDialog({ kind: 'move', page })}
                        >
                          <IconFolderSymlink size={16} />
                        </ActionIcon>
                      )}
                      {canDelete && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('pages.list.remove', { name: page.name })}
                          onClick={() => setDialog({ kind: 'remove', page })}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      )}
      {dialog?.kind === 'newFolder' && (
        <NameDialog
          title={t(dialog.type === 'ROOT' ? 'pages.list.newRoot' : 'pages.list.newFolder')}
          hint={dialog.type === 'ROOT' ? t('pages.list.rootHint') : undefined}
          initial=""
          loading={create.isPending}
          onClose={close}
          onSave={(name) =>
            create.mutate(
              { name, type: dialog.type, parentId: parent },
              {
                onSuccess: () => (
                  notifySuccess(dialog.type === 'ROOT' ? 'pages.list.rootCreated' : 'pages.list.created', {
                    name,
                  }),
                  close()
                ),
              },
            )
          }
        />
      )}
      {dialog?.kind === 'rename' && (
        <NameDialog
          title={t('pages.list.renameTitle', { name: dialog.page.name })}
          initial={dialog.page.name}
          loading={patch.isPending}
          onClose={close}
          onSave={(name) => update(dialog.page, { id: dialog.page.id, name }, 'pages.list.renamed')}
        />
      )}
      {dialog?.kind === 'move' && (
        <MoveDialog
          page={dialog.page}
          pages={all}
          loading={patch.isPending}
          onClose={close}
          onMove={(parentId) => update(dialog.page, { id: dialog.page.id, parentId }, 'pages.list.moved')}
        />
      )}
      {dialog?.kind === 'remove' && (
        <ConfirmDialog
          opened
          color="red"
          title={t('pages.list.removeTitle', { name: dialog.page.name })}
          confirmLabel={t('pages.list.removeConfirm')}
          loading={remove.isPending}
          onClose={close}
          onConfirm={() =>
            remove.mutate(dialog.page, {
              onSuccess: () => (notifySuccess('pages.list.removed', { name: dialog.page.name }), close()),
            })
          }
        >
          <ConfirmText>
            {isFolderPage(dialog.page) ? t('pages.list.removeFolderText') : t('pages.list.removeText')}
          </ConfirmText>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
