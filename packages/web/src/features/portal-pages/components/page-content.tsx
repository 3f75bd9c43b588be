import { Alert, Skeleton, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { MarkdownView } from '../../pages/components/markdown-view';
import type { DocumentedApi } from '../../pages/components/openapi-page';
import type { DocPage } from '../api/portal-pages';

/** swagger-ui, loaded only when an OpenAPI page is shown. */
const OpenApiView = lazy(() => import('../../pages/components/openapi-view'));
/** An API's OpenAPI page with try-it through the gateway (swagger-ui itself loads lazily inside). */
const OpenApiPage = lazy(() =>
  import('../../pages/components/openapi-page').then((m) => ({ default: m.OpenApiPage })),
);

/** For an API's page: the API (where the gateway serves it) and the URL of the page's content. */
export interface TryItContext {
  api: DocumentedApi | undefined;
  contentUrl: string;
}

/**
 * A documentation page as the portal shows it: Markdown rendered safely (no script of a page runs) with
 * its headings' navigation, OpenAPI through swagger-ui with the page's configuration (and, for an
 * API's page, try-it through the gateway with the reader's key), RAML as text.
 */
export function PageContent({ page, tryIt }: { page: DocPage; tryIt?: TryItContext | undefined }) {
  const { t } = useTranslation();
  switch (page.type) {
    case 'MARKDOWN':
      return <MarkdownView content={page.content ?? ''} />;
    case 'SWAGGER':
      return (
        <Suspense fallback={<Skeleton height={400} />}>
          {tryIt ? (
            <OpenApiPage page={page} api={tryIt.api} contentUrl={tryIt.contentUrl} />
          ) : (
            <OpenApiView content={page.content ?? ''} configuration={page.configuration} />
          )}
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
