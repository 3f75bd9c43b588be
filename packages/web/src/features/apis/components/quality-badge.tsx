import { Badge, RingProgress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { qualityOf } from '../rules';

const COLORS = { bad: 'red', medium: 'orange', good: 'teal' } as const;

/** The quality score in percent, coloured by its class (bad, medium, good). */
export function QualityBadge({ score }: { score: number }) {
  const { t } = useTranslation();
  const { percent, level } = qualityOf(score);
  return (
    <Badge
      variant="light"
      color={COLORS[level]}
      data-quality={level}
      aria-label={t('apis.quality.scoreLabel', { percent })}
    >
      {percent}%
    </Badge>
  );
}

/** The circular quality widget of the general page. */
export function QualityRing({ score }: { score: number }) {
  const { t } = useTranslation();
  const { percent, level } = qualityOf(score);
  return (
    <RingProgress
      size={120}
      thickness={10}
      roundCaps
      data-quality={level}
      sections={[{ value: percent, color: COLORS[level] }]}
      aria-label={t('apis.quality.scoreLabel', { percent })}
      label={
        <Stack gap={0} align="center">
          <Text fw={700} size="xl" c={COLORS[level]}>
            {percent}%
          </Text>
          <Text size="xs" c="dimmed">
            {t(`apis.quality.level.${level}`)}
          </Text>
        </Stack>
      }
    />
  );
}
