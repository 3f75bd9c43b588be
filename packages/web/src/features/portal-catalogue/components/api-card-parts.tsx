import { Avatar, Badge, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { RatingStars } from '../../../shared/ui/rating-stars';
import type { CatalogueApi } from '../api/catalogue';
import classes from './catalogue.module.css';

/** The pieces an API's tile and row share. */
export interface ApiCardProps {
  api: CatalogueApi;
  /** View names by id, for the chips. */
  viewNames: ReadonlyMap<string, string>;
}

export const apiPath = (api: CatalogueApi, page: 'detail' | 'ratings' | 'pages') =>
  `/apis/${encodeURIComponent(api.id)}/${page}`;

export function Picture({ api, size }: { api: CatalogueApi; size: number }) {
  return (
    <Avatar src={api.has_picture ? api.picture_url : null} alt="" size={size} radius="md" color="blue">
      {api.name.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}

export function ViewChips({ api, viewNames }: ApiCardProps) {
  const names = api.views.map((id) => viewNames.get(id)).filter((n): n is string => !!n);
  if (names.length === 0) return null;
  return (
    <Group gap={6}>
      {names.map((name) => (
        <Badge key={name} variant="light" radius="sm" size="sm" tt="none">
          {name}
        </Badge>
      ))}
    </Group>
  );
}

/** The API's stars and number of ratings, when the list carries them (while the portal rates APIs). */
export function Stars({ api }: { api: CatalogueApi }) {
  if (api.numberOfRatings === undefined) return null;
  return <RatingStars rate={api.rate} numberOfRatings={api.numberOfRatings} />;
}

/** A tile's top and middle: picture, name (plain text, or the tile's link), version, description, views. */
export function TileSummary({ api, viewNames, name }: ApiCardProps & { name: ReactNode }) {
  return (
    <>
      <Group wrap="nowrap" gap="sm">
        <Picture api={api} size={48} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          {name}
          <Text size="sm" c="dimmed">
            {api.version}
          </Text>
        </Stack>
      </Group>
      <Text size="sm" className={classes.description} lineClamp={3}>
        {api.description}
      </Text>
      <ViewChips api={api} viewNames={viewNames} />
    </>
  );
}
