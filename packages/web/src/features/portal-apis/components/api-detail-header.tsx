import { Anchor, Avatar, Badge, Box, Container, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isAvailable } from '../../../app/screens';
import { useConfig } from '../../../shared/config/config-context';
import { useSession } from '../../../shared/session/current-user';
import { mayReadRatings, ratingRightsQueryOptions } from '../../../shared/session/rating-rights';
import { RatingStars } from '../../../shared/ui/rating-stars';
import { apiEntrypoints, headerDescription, HIDDEN_HEADER } from '../api/entrypoints';
import type { PortalApi } from '../api/portal-api';
import { useApiHeaders, useEntrypoints, useViews } from '../api/portal-api';
import classes from './api-detail.module.css';

/** Header names of the default portal headers that have a translated label. */
const KNOWN_HEADERS = ['api.version', 'api.owner', 'api.createdAt', 'api.updatedAt'];

/**
 * The API header (portal-and-platform.md: API detail): picture, name and version, the rating (stars once
 * rated, and a link to the ratings page for users who may read them: api-rating-r) when the portal rates
 * APIs, the description (cut at 150 characters), the portal headers except api.endpoint, the
 * entrypoints (with their sharding tags when apiHeaderShowTags is on) and the views (when
 * apiHeaderShowViews is on).
 */
export function ApiDetailHeader({ api }: { api: PortalApi }) {
  const { t } = useTranslation();
  const config = useConfig();
  const showTags = config.portal.apis.apiHeaderShowTags.enabled;
  const showViews = config.portal.apis.apiHeaderShowViews.enabled;
  const headers = useApiHeaders(api.id);
  const entrypoints = useEntrypoints();
  const views = useViews(showViews && api.views.length > 0);
  const shownHeaders = (headers.data ?? []).filter((h) => h.name !== HIDDEN_HEADER);
  const where = entrypoints.isPending
    ? []
    : apiEntrypoints(api, entrypoints.data ?? [], config.portal.entrypoint);
  const viewNames = (views.data ?? []).filter((v) => api.views.includes(v.id)).map((v) => v.name);
  const rated = config.portal.rating.enabled;
  const { user } = useSession();
  // Only a non-PUBLIC API needs the user's rights: on a PUBLIC one anybody reads the ratings.
  const rights = useQuery({
    ...ratingRightsQueryOptions(api.id),
    enabled: rated && !!user && api.visibility !== 'PUBLIC',
  });
  const ratingsLink = (label: string) =>
    isAvailable('portal.api.rating') && mayReadRatings(api, rights.data) ? (
      <Anchor component={Link} to={`/apis/${encodeURIComponent(api.id)}/ratings`} size="sm">
        {label}
      </Anchor>
    ) : (
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    );

  return (
    <Box className={classes.header}>
      <Container size="lg" py="lg">
        <Group align="flex-start" wrap="nowrap" gap="lg">
          <Avatar src={api.picture_url} alt="" size={72} radius="md" color="blue">
            {api.name.slice(0, 2).toUpperCase()}
          </Avatar>
          <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
            <Group gap="sm" align="baseline">
              <Title order={1} size="h2">
                {api.name}
              </Title>
              <Text c="dimmed">{api.version}</Text>
            </Group>
            {rated &&
              (typeof api.rate === 'number' ? (
                <RatingStars
                  rate={api.rate}
                  numberOfRatings={api.numberOfRatings ?? 0}
                  size="md"
                  count={ratingsLink}
                />
              ) : (
                ratingsLink(t('portalApi.ratings', { count: api.numberOfRatings ?? 0 }))
              ))}
            {api.description && <Text>{headerDescription(api.description)}</Text>}
            {shownHeaders.length > 0 && (
              <dl className={classes.facts}>
                {shownHeaders.map((header) => (
                  <div key={header.name}>
                    <dt>
                      {KNOWN_HEADERS.includes(header.name)
                        ? t(`portalApi.headers.${header.name.slice(4)}` as 'portalApi.headers.version')
                        : header.name}
                    </dt>
                    <dd>{header.value}</dd>
                  </div>
                ))}
              </dl>
            )}
            {where.length > 0 && (
              <div>
                <Text size="sm" fw={600} component="h2" mb={4}>
                  {t('portalApi.entrypoints')}
                </Text>
                <Stack gap={4}>
                  {where.map((entrypoint) => (
                    <Group key={entrypoint.value} gap="xs">
                      <Text component="code" className={classes.code}>
                        {entrypoint.value}
                      </Text>
                      {showTags &&
                        entrypoint.tags.map((tag) => (
                          <Badge key={tag} variant="light" size="sm">
                            {tag}
                          </Badge>
                        ))}
                    </Group>
                  ))}
                </Stack>
              </div>
            )}
            {viewNames.length > 0 && (
              <Group gap="xs" aria-label={t('portalApi.views')} role="list">
                {viewNames.map((name) => (
                  <Badge key={name} variant="outline" color="gray" role="listitem">
                    {name}
                  </Badge>
                ))}
              </Group>
            )}
          </Stack>
        </Group>
      </Container>
    </Box>
  );
}
