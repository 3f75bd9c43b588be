import {
  Anchor,
  Avatar,
  Box,
  Breadcrumbs,
  Button,
  Container,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconApi } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import { http } from '../../../shared/http';
import type { CatalogueView } from '../api/catalogue';
import { useCatalogueViews, useViewApis } from '../api/catalogue';
import { ApiResults } from './api-results';
import classes from './catalogue.module.css';

/**
 * `/views/{viewId}`: the view's description, its highlighted API (the view's highlightApi, else the
 * first) with links to its detail, its ratings (while the portal rates APIs) and its documentation, and
 * the other APIs of the view as tiles with the same three links.
 */
export function ViewPage() {
  const { t } = useTranslation();
  const rated = useConfig().portal.rating.enabled;
  const viewId = useParams().viewId ?? '';
  const view = useQuery({
    queryKey: ['portal', 'catalogue', 'view', viewId],
    queryFn: ({ signal }) =>
      http.get<CatalogueView>(`configuration/views/${encodeURIComponent(viewId)}`, { signal }),
  });
  const views = useCatalogueViews();
  const apis = useViewApis(viewId);
  const viewNames = useMemo(() => new Map((views.data ?? []).map((v) => [v.id, v.name])), [views.data]);
  const list = apis.data ?? [];
  const highlighted = list.find((a) => a.id === view.data?.highlightApi) ?? list[0];
  const others = list.filter((a) => a !== highlighted);

  if (view.isPending || apis.isPending) {
    return (
      <Group justify="center" py="xl">
        <Loader />
      </Group>
    );
  }
  return (
    <Container size="xl" py="xl">
      <Breadcrumbs mb="md">
        <Anchor component={Link} to="/views">
          {t('catalogue.viewsTitle')}
        </Anchor>
        <Text>{view.data?.name ?? viewId}</Text>
      </Breadcrumbs>
      <Title order={1}>{view.data?.name ?? viewId}</Title>
      {view.data?.description && (
        <Text c="dimmed" mt="xs" maw={760}>
          {view.data.description}
        </Text>
      )}
      {!highlighted ? (
        <Box className={classes.panel} mt="xl">
          <EmptyState
            icon={<IconApi size={32} stroke={1.5} />}
            variant="light"
            title={t('apis.empty.title')}
            description={t('apis.empty.description')}
            py={48}
          />
        </Box>
      ) : (
        <Stack gap="xl" mt="xl">
          <Paper withBorder radius="md" p="xl" className={classes.highlight} data-testid="highlighted-api">
            <Text size="xs" tt="uppercase" fw={700} c="dimmed" mb="sm">
              {t('catalogue.highlighted')}
            </Text>
            <Group wrap="nowrap" align="flex-start" gap="lg">
              <Avatar
                src={highlighted.has_picture ? highlighted.picture_url : null}
                alt=""
                size={72}
                radius="md"
                color="blue"
              >
                {highlighted.name.slice(0, 2).toUpperCase()}
              </Avatar>
              <Stack gap="xs" style={{ flex: 1, minWidth: 0 }}>
                <Group gap="sm" align="baseline">
                  <Title order={2}>{highlighted.name}</Title>
                  <Text c="dimmed">{highlighted.version}</Text>
                </Group>
                <Text>{highlighted.description}</Text>
                <Group gap="sm" mt="xs">
                  <Button component={Link} to={`/apis/${encodeURIComponent(highlighted.id)}/detail`}>
                    {t('catalogue.open')}
                  </Button>
                  {rated && (
                    <Button
                      variant="default"
                      component={Link}
                      to={`/apis/${encodeURIComponent(highlighted.id)}/ratings`}
                    >
                      {t('portalRatings.title')}
                    </Button>
                  )}
                  <Button
                    variant="default"
                    component={Link}
                    to={`/apis/${encodeURIComponent(highlighted.id)}/pages`}
                  >
                    {t('catalogue.documentation')}
                  </Button>
                </Group>
              </Stack>
            </Group>
          </Paper>
          {others.length > 0 && (
            <Stack gap="md">
              <Title order={2} size="h3">
                {t('catalogue.otherApis')}
              </Title>
              <ApiResults apis={others} tiles viewNames={viewNames} links={{ ratings: rated }} />
            </Stack>
          )}
        </Stack>
      )}
    </Container>
  );
}
