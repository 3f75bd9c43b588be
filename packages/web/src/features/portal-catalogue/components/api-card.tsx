import { Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import type { CatalogueApi } from '../api/catalogue';
import type { ApiCardProps } from './api-card-parts';
import { apiPath, Picture, Stars, TileSummary, ViewChips } from './api-card-parts';
import classes from './catalogue.module.css';
import { LinkedApiTile } from './linked-api-tile';

/**
 * Besides its detail, the tile links to the API's ratings (when `ratings`: while the portal rates APIs)
 * and its documentation (the view page: each API opens its detail, rating or documentation).
 */
export interface ApiTileLinks {
  ratings: boolean;
}

interface ApiTileProps extends ApiCardProps {
  links?: ApiTileLinks | undefined;
}

const detailPath = (api: CatalogueApi) => apiPath(api, 'detail');

/** An API as a tile: picture, name, version, description, its views as chips and its stars; opens its detail. */
export function ApiTile({ api, viewNames, links }: ApiTileProps) {
  if (links) return <LinkedApiTile api={api} viewNames={viewNames} ratings={links.ratings} />;
  return (
    <Card withBorder radius="md" padding="lg" component={Link} to={detailPath(api)} className={classes.card}>
      <TileSummary
        api={api}
        viewNames={viewNames}
        name={
          <Text fw={600} size="lg" truncate="end">
            {api.name}
          </Text>
        }
      />
      <Stars api={api} />
    </Card>
  );
}

/** An API as a list row: the same facts on one line. */
export function ApiRow({ api, viewNames }: ApiCardProps) {
  return (
    <UnstyledButton component={Link} to={detailPath(api)} className={classes.row} p="sm">
      <Group wrap="nowrap" gap="md" align="flex-start">
        <Picture api={api} size={40} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" align="baseline">
            <Text fw={600}>{api.name}</Text>
            <Text size="sm" c="dimmed">
              {api.version}
            </Text>
          </Group>
          {api.description && (
            <Text size="sm" lineClamp={2}>
              {api.description}
            </Text>
          )}
          <ViewChips api={api} viewNames={viewNames} />
          <Stars api={api} />
        </Stack>
      </Group>
    </UnstyledButton>
  );
}
