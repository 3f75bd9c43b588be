import {
  Anchor,
  Box,
  Button,
  Container,
  EmptyState,
  Group,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconApi, IconSearch } from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useTopApis } from '../../features/portal-catalogue/api/top-apis';
import { usePortalHomepage } from '../../features/portal-pages/api/root-pages';
import { useConfig } from '../../shared/config/config-context';
import classes from './home-page.module.css';

/** The portal's homepage page: its renderers (Markdown, OpenAPI) load only when there is one. */
const HomepagePanel = lazy(() => import('../../features/portal-pages/components/homepage-section'));
/** The top APIs' cards load only when there are top APIs. */
const TopApiCards = lazy(() => import('./top-api-cards'));

/** The top APIs (`GET apis/?top=true`) as cards: picture, name, version, description, views, stars. */
function TopApis() {
  const { t } = useTranslation();
  const top = useTopApis();
  const skeleton = (
    <div className={classes.tiles}>
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} height={180} radius="md" />
      ))}
    </div>
  );
  if (top.isPending) return skeleton;
  if (!top.data?.length) {
    return (
      <Box className={classes.panel}>
        <EmptyState
          icon={<IconApi size={32} stroke={1.5} />}
          variant="light"
          title={t('apis.empty.title')}
          description={t('home.topApisEmptyText')}
          py={48}
        />
      </Box>
    );
  }
  return (
    <Suspense fallback={skeleton}>
      <TopApiCards apis={top.data} />
    </Suspense>
  );
}

/** Portal home: the search box, the portal's homepage page when there is one, and the top APIs. */
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
        <Group justify="space-between" align="flex-end" mb="md" gap="xs">
          <div>
            <Title order={2} size="h3" id="home-top-apis">
              {t('home.topApis')}
            </Title>
            <Text c="dimmed" size="sm">
              {t('home.topApisText')}
            </Text>
          </div>
          <Anchor component={Link} to="/apis" fw={500}>
            {t('home.allApis')}
          </Anchor>
        </Group>
        <TopApis />
      </Container>
    </>
  );
}
