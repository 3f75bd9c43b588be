import { Group, Paper, Progress, Rating as Stars, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { RatingSummary } from '../api/ratings';
import { STARS } from '../api/ratings';

/** The summary (portal-and-platform.md 2, Ratings page): the average to 1 decimal, counts from 5 to 1 star. */
export function RatingSummaryCard({ summary }: { summary: RatingSummary }) {
  const { t } = useTranslation();
  const total = summary.numberOfRatings;
  const rates = Array.from({ length: STARS }, (_, i) => STARS - i);
  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="ratings-summary-title">
      <Title order={2} size="h4" id="ratings-summary-title" mb="sm">
        {t('portalRatings.summary.title')}
      </Title>
      <Group align="center" gap="xl" wrap="wrap">
        <Stack gap={4} align="center" miw={140}>
          <Text fz={44} fw={700} lh={1} data-testid="ratings-average">
            {summary.averageRate === null ? '–' : summary.averageRate.toFixed(1)}
          </Text>
          <Stars
            value={summary.averageRate ?? 0}
            fractions={10}
            readOnly
            role="img"
            aria-label={t('portalApi.rating', { rate: summary.averageRate ?? 0 })}
          />
          <Text size="sm" c="dimmed">
            {t('portalApi.ratings', { count: total })}
          </Text>
        </Stack>
        <Stack gap={6} style={{ flex: 1, minWidth: 220 }} component="ul" p={0} m={0}>
          {rates.map((rate) => {
            const count = summary.numberOfRatingsByRate[String(rate)] ?? 0;
            return (
              <Group key={rate} gap="sm" wrap="nowrap" component="li" style={{ listStyle: 'none' }}>
                <Text size="sm" w={70}>
                  {t('portalRatings.stars', { count: rate })}
                </Text>
                <Progress
                  value={total === 0 ? 0 : (count * 100) / total}
                  style={{ flex: 1 }}
                  size="md"
                  color="yellow"
                  aria-label={t('portalRatings.summary.bar', { stars: rate, count })}
                />
                <Text size="sm" w={32} ta="right" data-testid={`ratings-count-${rate}`}>
                  {count}
                </Text>
              </Group>
            );
          })}
        </Stack>
      </Group>
    </Paper>
  );
}
