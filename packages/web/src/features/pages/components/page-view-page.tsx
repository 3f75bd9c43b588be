import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink, IconPencil } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { apiQueryOptions } from '../../apis/api/get-api';
import { http } from '../../../shared/http';
import { isFolderPage, usePage } from '../api/pages';
import { MarkdownView } from './markdown-view';
import { useDocsScope } from './docs-scope';
import { OpenApiPage } from './openapi-page';

/** An edit link of a fetched page, only http(s) (the source's own page, e.g. on GitHub). */
const safeLink = (url: string | undefined) => (url && /^https?:\/\//i.test(url) ? url : undefined);

/**
 * The viewer (`documentation/{pageId}`): the unpublished banner, an Edit button for who may update,
 * Markdown rendered safely with its headings' navigation, OpenAPI through swagger-ui, RAML as text.
 */
export function PageViewPage() {
  const { t } = useTranslation();
  const { pageId = '' } = useParams();
  const scope = useDocsScope();
  const page = usePage(scope.ref, pageId);
  const api = useQuery({ ...apiQueryOptions(scope.apiId ?? ''), enabled: !!scope.apiId }).data?.api;
  if (!page.data) return null;
  const doc = page.data;
  const editUrl = safeLink(doc.metadata?.edit_url);
  if (isFolderPage(doc))
    return <Navigate to={`..?parent=${encodeURIComponent(doc.id)}`} relative="path" replace />;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {doc.name}
          </Title>
          <Text size="sm" c="dimmed">
            {t(`pages.types.${doc.type}`)}
          </Text>
        </div>
        <Group gap="sm">
          <Button
            component={Link}
            to={doc.parentId ? `..?parent=${encodeURIComponent(doc.parentId)}` : '..'}
            relative="path"
            variant="default"
          >
            {t('pages.view.back')}
          </Button>
          {editUrl && (
            <Button
              component="a"
              href={editUrl}
              target="_blank"
              rel="noopener noreferrer"
              variant="default"
              leftSection={<IconExternalLink size={16} />}
            >
              {t('pages.view.editOn', { provider: doc.metadata?.provider_name || doc.source?.type })}
            </Button>
          )}
          {scope.can('u') && (
            <Button component={Link} to="edit" leftSection={<IconPencil size={16} />}>
              {t('pages.view.edit')}
            </Button>
          )}
        </Group>
      </Group>
      {!doc.published && (
        <Alert color="yellow" title={t('pages.view.unpublished')}>
          {t('pages.view.unpublishedText')}
        </Alert>
      )}
      {doc.type === 'RAML' && <Alert color="orange">{t('pages.raml')}</Alert>}
      {doc.type === 'MARKDOWN' && <MarkdownView content={doc.content ?? ''} />}
      {doc.type === 'SWAGGER' && (
        <OpenApiPage page={doc} api={api} contentUrl={http.url(scope.contentPath(doc.id))} />
      )}
      {doc.type === 'RAML' && (
        <Text component="pre" ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {doc.content}
        </Text>
      )}
    </Stack>
  );
}
