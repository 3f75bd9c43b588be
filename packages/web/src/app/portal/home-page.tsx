import { Box, Button, Container, EmptyState, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconApi, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePortalHomepage } from '../../features/portal-pages/api/root-pages';
import { useConfig } from '../../shared/config/config-context';
import classes from './home-page.module.css';

/** The portal's homepage page: its renderers (Markdown, OpenAPI) load only when there is one. */
const HomepagePanel = lazy(() => import('../../features/portal-pages/components/homepage-section'));

/**
 * Portal home: the search box, the portal's homepage page when there is one, and the top APIs. The
 * catalogue (top APIs, search results) comes with its own issue; until then the list shows its 'no API'
 * state.
 */
export function HomePage() {
  const { t } = useTranslation();
  const config = useConfig();
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const homepage = usePortalHomepage();

  return (
    <>
      <Box className={classes.hero}>
        <Container size="lg" py={56}>
          <Stack gap="md" maw={720}>
            <Title order={1}>{t('home.title', { company: config.company.name })}</Title>
            <Text size="lg" c="dimmed">
              {t('home.subtitle')}
            </Text>
            <form
              role="search"
              onSubmit={(event) => {
                event.preventDefault();
                const q = query.trim();
                void navigate(q ? `/apis?q=${encodeURIComponent(q)}` : '/apis');
              }}
            >
              <Group gap="sm" wrap="nowrap" mt="sm">
                <TextInput
                  flex={1}
                  size="md"
                  value={query}
                  onChange={(event) => setQuery(event.currentTarget.value)}
                  placeholder={t('home.search.placeholder')}
                  aria-label={t('home.search.label')}
                  leftSection={<IconSearch size={18} />}
                />
                <Button type="submit" size="md">
                  {t('home.search.submit')}
                </Button>
              </Group>
            </form>
          </Stack>
        </Container>
      </Box>
      {homepage.data && (
        <Suspense fallback={null}>
          <HomepagePanel page={homepage.data} inContainer />
        </Suspense>
      )}
      <Container size="lg" py="xl">
        <Title order={2} size="h3" mb="md">
          {t('home.topApis')}
        </Title>
        <Box className={classes.panel}>
          <EmptyState
            icon={<IconApi size={32} stroke={1.5} />}
            variant="light"
            title={t('apis.empty.title')}
            description={t('apis.empty.description')}
            py={48}
          />
        </Box>
      </Container>
    </>
  );
}
