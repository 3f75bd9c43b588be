import { Container, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DocPage, DocScope } from '../api/portal-pages';
import { useHomepage } from '../api/portal-pages';
import { PageContent } from './page-content';

/** A homepage page in its panel (the portal home wraps it in the page's container). */
export default function HomepagePanel({ page, inContainer }: { page: DocPage; inContainer?: boolean }) {
  const { t } = useTranslation();
  const section = (
    <Paper component="section" withBorder radius="md" p="xl" aria-label={t('portalPages.homepage')}>
      <PageContent page={page} />
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

/** The homepage page of an API, when there is one (nothing otherwise). */
export function HomepageSection({ scope }: { scope: DocScope }) {
  const homepage = useHomepage(scope);
  return homepage.data ? <HomepagePanel page={homepage.data} /> : null;
}
