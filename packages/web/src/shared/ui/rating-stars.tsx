import { Group, Rating, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface RatingStarsProps {
  /** The average to one decimal; null or absent while the API has no rating (empty stars). */
  rate: number | null | undefined;
  numberOfRatings: number;
  size?: 'sm' | 'md';
  /** What shows the number of ratings (a link to the ratings page); dimmed text by default. */
  count?: (label: string) => ReactNode;
}

/**
 * An API's read-only stars (tenths filled) with the number of ratings, one image for screen readers
 * (portal catalogue cards, home top APIs, API header).
 */
export function RatingStars({ rate, numberOfRatings, size = 'sm', count }: RatingStarsProps) {
  const { t } = useTranslation();
  const label = t('portalApi.ratings', { count: numberOfRatings });
  return (
    <Group gap="xs" wrap="nowrap">
      <Rating
        value={rate ?? 0}
        fractions={10}
        readOnly
        size={size}
        role="img"
        aria-label={t('portalApi.rating', { rate: rate ?? 0 })}
      />
      {count ? (
        count(label)
      ) : (
        <Text size="xs" c="dimmed">
          {label}
        </Text>
      )}
    </Group>
  );
}
