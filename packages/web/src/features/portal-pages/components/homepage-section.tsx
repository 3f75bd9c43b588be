import { Container, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DocScope } from '../api/portal-pages';
import { useHomepage } from '../api/portal-pages';
import { PageContent } from './page-content';

/** The homepage page of the portal or of an API, when there is one (nothing otherwise). */
export function HomepageSection({ scope, inContainer }: { scope: DocScope; inContainer?: boolean }) {
  const { t } = useTranslation();
  const homepage = useHomepage(scope);
  if (!homepage.data) return null;
  const section = (
    <Paper component="section" withBorder radius="md" p="xl" aria-label={t('portalPages.homepage')}>
      <PageContent page={homepage.data} />
    </Paper>
  );
  return inContainer ? (
    <Container size="lg" pt="xl">
      {section}
    </Container>
  ) : (
    section
  );
}

export default HomepageSection;
