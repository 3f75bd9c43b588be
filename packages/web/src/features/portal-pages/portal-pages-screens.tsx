import { Container, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { DocumentationPage } from './components/documentation-page';

/** `/pages` and `/pages/{pageId}`: the portal's documentation. */
export function PortalDocumentationPage() {
  const { t } = useTranslation();
  return (
    <Container size="lg" py="xl">
      <Title order={1} size="h2" mb="lg">
        {t('portalPages.title')}
      </Title>
      <DocumentationPage scope={{ portal: true }} basePath="/pages" />
    </Container>
  );
}

/** `/apis/{apiId}/pages` and `/apis/{apiId}/pages/{pageId}`: an API's documentation (inside its frame). */
export function ApiDocumentationPage() {
  const { apiId = '' } = useParams();
  return <DocumentationPage scope={{ apiId }} basePath={`/apis/${encodeURIComponent(apiId)}/pages`} />;
}
