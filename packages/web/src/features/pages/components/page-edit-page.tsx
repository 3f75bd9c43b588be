import { Alert, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router';
import { notifySuccess } from '../../../shared/ui/notify';
import type { DocPage, PageInput, PageType } from '../api/pages';
import { NEW_PAGE_TYPES, useCreatePage, usePage, usePatchPage, useUpdatePage } from '../api/pages';
import { useFetchPages } from '../api/fetchers';
import { useDocsScope } from './docs-scope';
import { NameDialog } from './page-dialogs';
import { AccessTab, ConfigurationTab, ContentTab, SourceTab } from './page-tabs';

const TABS = ['content', 'config', 'fetchers', 'access-control'] as const;
type Tab = (typeof TABS)[number];

const draftOf = (page: DocPage): PageInput => ({
  name: page.name,
  type: page.type,
  content: page.content ?? '',
  published: page.published,
  homepage: page.homepage,
  parentId: page.parentId,
  order: page.order,
  source: page.source,
  configuration: page.configuration,
  excluded_groups: page.excluded_groups,
});

/**
 * The edit page (`documentation/{pageId}/edit?tab=`, and `documentation/new?type=&parent=` for a new
 * one): tabs Page, Configuration, External Source, Access Control; Save, Reset, Rename. Read-only
 * without api-documentation-u; an unsupported type goes back to the list.
 */
export function PageEditPage() {
  const { t } = useTranslation();
  const { pageId } = useParams();
  const scope = useDocsScope();
  const apiId = scope.ref;
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const page = usePage(apiId, pageId);
  const create = useCreatePage(apiId);
  const update = useUpdatePage(apiId);
  const patch = usePatchPage(apiId);
  const fetchOne = useFetchPages(apiId);
  const newType = params.get('type') as PageType | null;
  const initial: PageInput | undefined = pageId
    ? page.data && draftOf(page.data)
    : {
        name: '',
        type: newType ?? undefined,
        content: '',
        parentId: params.get('parent') || null,
        published: false,
      };
  // The user's changes over the stored page: Reset forgets them, a save clears them.
  const [edits, setEdits] = useState<Partial<PageInput>>({});
  const draft: PageInput | undefined = initial && { ...initial, ...edits };
  const [renaming, setRenaming] = useState(false);

  const type = draft?.type ?? page.data?.type ?? newType;
  if (
    (!pageId && !(NEW_PAGE_TYPES as readonly string[]).includes(newType ?? '')) ||
    type === 'FOLDER' ||
    type === 'ROOT'
  )
    return <Navigate to={pageId ? '../..' : '..'} relative="path" replace />;
  if (!draft) return null;

  const readOnly = !scope.can(pageId ? 'u' : 'c');
  const tab: Tab = (TABS as readonly string[]).includes(params.get('tab') ?? '')
    ? (params.get('tab') as Tab)
    : 'content';
  const changed = JSON.stringify(draft) !== JSON.stringify(initial);
  const valid = (draft.name ?? '').trim() !== '';
  const onChange = (changes: Partial<PageInput>) => setEdits((current) => ({ ...current, ...changes }));
  const save = () => {
    const body = { ...draft, name: draft.name!.trim() };
    if (!pageId)
      create.mutate(body, {
        onSuccess: (created) => {
          notifySuccess('pages.edit.created', { name: created.name });
          navigate(`../${created.id}/edit`, { relative: 'path', replace: true });
        },
      });
    else
      update.mutate(
        { ...body, id: pageId },
        { onSuccess: (saved) => (setEdits({}), notifySuccess('pages.edit.saved', { name: saved.name })) },
      );
  };

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {pageId
              ? page.data?.name
              : t('pages.edit.newTitle', { type: t(`pages.types.${type as PageType}`) })}
          </Title>
          <Text size="sm" c="dimmed">
            {t(`pages.types.${type as PageType}`)}
          </Text>
        </div>
        <Group gap="sm">
          {pageId && (
            <Button variant="default" onClick={() => navigate(`../../${pageId}`, { relative: 'path' })}>
              {t('pages.edit.view')}
            </Button>
          )}
          {pageId && !readOnly && page.data?.source?.type && (
            <Button
              variant="default"
              loading={fetchOne.isPending}
              onClick={() =>
                fetchOne.mutate(pageId, { onSuccess: () => notifySuccess('pages.list.fetched') })
              }
            >
              {t('pages.edit.fetch')}
            </Button>
          )}
          {pageId && !readOnly && (
            <Button variant="default" onClick={() => setRenaming(true)}>
              {t('pages.edit.rename')}
            </Button>
          )}
        </Group>
      </Group>
      {type === 'RAML' && <Alert color="orange">{t('pages.raml')}</Alert>}
      {readOnly && <Alert variant="light">{t('pages.edit.readOnly')}</Alert>}
      <Tabs
        value={tab}
        onChange={(value) => setParams((p) => (p.set('tab', value ?? 'content'), p), { replace: true })}
      >
        <Tabs.List>
          <Tabs.Tab value="content">{t('pages.edit.tabs.content')}</Tabs.Tab>
          <Tabs.Tab value="config">{t('pages.edit.tabs.config')}</Tabs.Tab>
          <Tabs.Tab value="fetchers">{t('pages.edit.tabs.fetchers')}</Tabs.Tab>
          <Tabs.Tab value="access-control">{t('pages.edit.tabs.access')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="content" pt="md">
          <ContentTab
            draft={draft}
            readOnly={readOnly}
            onChange={onChange}
            mediaUploadPath={scope.mediaUploadPath}
          />
        </Tabs.Panel>
        <Tabs.Panel value="config" pt="md">
          <ConfigurationTab draft={draft} readOnly={readOnly} onChange={onChange} />
        </Tabs.Panel>
        <Tabs.Panel value="fetchers" pt="md">
          <SourceTab draft={draft} readOnly={readOnly} onChange={onChange} />
        </Tabs.Panel>
        <Tabs.Panel value="access-control" pt="md">
          <AccessTab draft={draft} readOnly={readOnly} onChange={onChange} />
        </Tabs.Panel>
      </Tabs>
      {!readOnly && (
        <Group gap="sm">
          <Button disabled={!changed || !valid} loading={create.isPending || update.isPending} onClick={save}>
            {t('common.save')}
          </Button>
          <Button variant="default" disabled={!changed} onClick={() => setEdits({})}>
            {t('common.reset')}
          </Button>
        </Group>
      )}
      {renaming && page.data && (
        <NameDialog
          title={t('pages.list.renameTitle', { name: page.data.name })}
          initial={page.data.name}
          loading={patch.isPending}
          onClose={() => setRenaming(false)}
          onSave={(name) =>
            patch.mutate(
              { id: page.data!.id, name },
              { onSuccess: () => (notifySuccess('pages.list.renamed', { name }), setRenaming(false)) },
            )
          }
        />
      )}
    </Stack>
  );
}
