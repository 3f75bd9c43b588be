import { Alert, Box, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconBook } from '@tabler/icons-react';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams } from 'react-router';
import { http, isHttpError } from '../../../shared/http';
import { usePortalApi } from '../../portal-apis/api/portal-api';
import type { DocPage, DocScope } from '../api/portal-pages';
import { useDocPage, useDocPages } from '../api/portal-pages';
import { DocTree } from './doc-tree';
import { docTree, firstRootPage, foldersOf } from './doc-tree-model';
import { PageContent } from './page-content';
import classes from './documentation-page.module.css';

/** A Markdown page that opens with its own level-1 heading needs no title above it. */
const startsWithTitle = (page: DocPage) => page.type === 'MARKDOWN' && /^\s*#\s/.test(page.content ?? '');

/**
 * The documentation of an API (`/apis/{apiId}/pages/{pageId}`) or of the portal (`/pages/{pageId}`):
 * the tree of folders and published pages beside the selected page; without a page in the route, the
 * first root page that is not a folder is selected.
 */
export function DocumentationPage({ scope, basePath }: { scope: DocScope; basePath: string }) {
  const { t } = useTranslation();
  const { pageId } = useParams();
  const pages = useDocPages(scope);
  const tree = useMemo(() => docTree(pages.data ?? []), [pages.data]);
  const page = useDocPage(scope, pageId);
  const pathOf = (id: string) => `${basePath}/${encodeURIComponent(id)}`;
  const apiId = 'apiId' in scope ? scope.apiId : '';
  const api = usePortalApi(apiId, apiId !== '');
  const tryIt =
    apiId && pageId
      ? {
          api: api.data && { id: api.data.id, context_path: api.data.context_path, tags: api.data.tags },
          contentUrl: http.url(
            `apis/${encodeURIComponent(apiId)}/pages/${encodeURIComponent(pageId)}/content`,
          ),
        }
      : undefined;

  if (pages.isPending) return <Skeleton height={320} />;
  if (!pageId) {
    const first = firstRootPage(tree);
    if (first) return <Navigate to={pathOf(first.id)} replace />;
  }
  if (tree.length === 0)
    return (
      <Paper withBorder p="xl" radius="md">
        <Stack align="center" gap="xs">
          <IconBook size={32} stroke={1.5} aria-hidden />
          <Text fw={600}>{t('portalPages.empty')}</Text>
        </Stack>
      </Paper>
    );

  return (
    <Group align="flex-start" wrap="nowrap" gap="xl" className={classes.layout}>
      <Box component="nav" aria-label={t('portalPages.tree')} className={classes.tree}>
        <DocTree
          key={pageId ?? ''}
          nodes={tree}
          pathOf={pathOf}
          selected={pageId}
          initiallyOpen={foldersOf(pages.data ?? [], pageId)}
        />
      </Box>
      <Box className={classes.content}>
        {page.isPending && pageId && <Skeleton height={320} />}
        {page.isError && (
          <Alert color="red" role="alert" title={t('portalPages.notFound')}>
            {isHttpError(page.error) && [401, 403, 404].includes(page.error.status)
              ? t('portalPages.notFoundText')
              : t('errors.unexpected')}
          </Alert>
        )}
        {page.data && (
          <Stack gap="md">
            {!startsWithTitle(page.data) && <Title order={2}>{page.data.name}</Title>}
            <PageContent page={page.data} tryIt={tryIt} />
          </Stack>
        )}
      </Box>
    </Group>
  );
}
