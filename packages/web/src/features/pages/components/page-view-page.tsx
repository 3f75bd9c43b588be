import { Alert, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useParams } from 'react-router';
import { useApiPermissions } from '../../../shared/session/api-permissions';
import { usePage } from '../api/pages';
import { MarkdownView } from './markdown-view';

/** swagger-ui, loaded only when an OpenAPI page is shown. */
const OpenApiView = lazy(() => import('./openapi-view'));

/**
 * The viewer (`documentation/{pageId}`): the unpublished banner, an Edit button for who may update,
 * Markdown rendered safely with its headings' navigation, OpenAPI through swagger-ui, RAML as text.
 */
export function PageViewPage() {
  const { t } = useTranslation();
  const { apiId = '', pageId = '' } = useParams();
  const permissions = useApiPermissions(apiId);
  const page = usePage(apiId, pageId);
  if (!page.data) return null;
  const doc = page.data;
  if (doc.type === 'FOLDER')
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
          {permissions.has('api-documentation-u') && (
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
        <Suspense fallback={<Skeleton height={400} />}>
          <OpenApiView content={doc.content ?? ''} configuration={doc.configuration} />
        </Suspense>
      )}
      {doc.type === 'RAML' && (
        <Text component="pre" ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {doc.content}
        </Text>
      )}
    </Stack>
  );
}
