import { Avatar, Badge, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router';
import { RatingStars } from '../../../shared/ui/rating-stars';
import type { CatalogueApi } from '../api/catalogue';
import classes from './catalogue.module.css';

interface ApiCardProps {
  api: CatalogueApi;
  /** View names by id, for the chips. */
  viewNames: ReadonlyMap<string, string>;
}

const detailPath = (api: CatalogueApi) => `/apis/${encodeURIComponent(api.id)}/detail`;

function Picture({ api, size }: { api: CatalogueApi; size: number }) {
  return (
    <Avatar src={api.has_picture ? api.picture_url : null} alt="" size={size} radius="md" color="blue">
      {api.name.slice(0, 2).toUpperCase()}
    </Avatar>
  );
}

function ViewChips({ api, viewNames }: ApiCardProps) {
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
function Stars({ api }: { api: CatalogueApi }) {
  if (api.numberOfRatings === undefined) return null;
  return <RatingStars rate={api.rate} numberOfRatings={api.numberOfRatings} />;
}

/** An API as a tile: picture, name, version, description, its views as chips and its stars; opens its detail. */
export function ApiTile({ api, viewNames }: ApiCardProps) {
  return (
    <Card withBorder radius="md" padding="lg" component={Link} to={detailPath(api)} className={classes.card}>
      <Group wrap="nowrap" gap="sm">
        <Picture api={api} size={48} />
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text fw={600} size="lg" truncate="end">
            {api.name}
          </Text>
          <Text size="sm" c="dimmed">
            {api.version}
          </Text>
        </Stack>
      </Group>
      <Text size="sm" className={classes.description} lineClamp={3}>
        {api.description}
      </Text>
      <ViewChips api={api} viewNames={viewNames} />
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
