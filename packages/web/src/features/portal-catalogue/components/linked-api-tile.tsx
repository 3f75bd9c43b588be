import { Anchor, Card, Group } from '@mantine/core';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RatingStars } from '../../../shared/ui/rating-stars';
import type { ApiCardProps } from './api-card-parts';
import { apiPath, Stars, TileSummary } from './api-card-parts';
import classes from './catalogue.module.css';

/**
 * The tile with three links: its name opens the detail (and, stretched over the tile, makes the whole
 * tile a click target, as the plain tile), the number of ratings opens the ratings, and a small link
 * the documentation. Links cannot nest, so the tile itself is no link; the two small links carry the
 * API's name as their description for screen readers.
 */
export function LinkedApiTile({ api, viewNames, ratings }: ApiCardProps & { ratings: boolean }) {
  const { t } = useTranslation();
  const nameId = useId();
  const ratingsLink = (label: string) => (
    <Anchor
      component={Link}
      to={apiPath(api, 'ratings')}
      size="xs"
      className={classes.tileLink}
      aria-describedby={nameId}
    >
      {label}
    </Anchor>
  );
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      component="article"
      aria-labelledby={nameId}
      className={`${classes.card} ${classes.linkedCard}`}
    >
      <TileSummary
        api={api}
        viewNames={viewNames}
        name={
          <Anchor
            component={Link}
            to={apiPath(api, 'detail')}
            id={nameId}
            fw={600}
            size="lg"
            c="inherit"
            underline="never"
            truncate="end"
            className={classes.stretchedLink}
          >
            {api.name}
          </Anchor>
        }
      />
      <Group justify="space-between" gap="xs" style={{ rowGap: 4 }}>
        {ratings ? (
          api.numberOfRatings === undefined ? (
            ratingsLink(t('portalRatings.title'))
          ) : (
            <RatingStars rate={api.rate} numberOfRatings={api.numberOfRatings} count={ratingsLink} />
          )
        ) : (
          <Stars api={api} />
        )}
        <Anchor
          component={Link}
          to={apiPath(api, 'pages')}
          size="xs"
          ms="auto"
          className={classes.tileLink}
          aria-describedby={nameId}
        >
          {t('catalogue.documentation')}
        </Anchor>
      </Group>
    </Card>
  );
}
