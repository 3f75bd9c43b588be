import { Alert, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { MarkdownView } from '../../pages/components/markdown-view';
import type { DocPage } from '../api/portal-pages';

/** swagger-ui, loaded only when an OpenAPI page is shown. */
const OpenApiView = lazy(() => import('../../pages/components/openapi-view'));

/**
 * A documentation page as the portal shows it: Markdown rendered safely (no script of a page runs) with
 * its headings' navigation, OpenAPI through swagger-ui with the page's configuration, RAML as text.
 */
export function PageContent({ page }: { page: DocPage }) {
  const { t } = useTranslation();
  switch (page.type) {
    case 'MARKDOWN':
      return <MarkdownView content={page.content ?? ''} />;
    case 'SWAGGER':
      return (
        <Suspense fallback={<Skeleton height={400} />}>
          <OpenApiView content={page.content ?? ''} configuration={page.configuration} />
        </Suspense>
      );
    case 'RAML':
      return (
        <>
          <Alert color="orange">{t('pages.raml')}</Alert>
          <Text component="pre" ff="monospace" size="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {page.content}
          </Text>
        </>
      );
    default:
      return null;
  }
}
