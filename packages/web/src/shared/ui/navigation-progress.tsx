import { Progress } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';

/** A thin bar at the top of the window while the next page's code or data loads. */
export function NavigationProgress() {
  const { t } = useTranslation();
  const navigation = useNavigation();
  if (navigation.state === 'idle') return null;
  return (
    <Progress
      value={100}
      animated
      size="xs"
      radius={0}
      pos="fixed"
      top={0}
      left={0}
      right={0}
      style={{ zIndex: 1000 }}
      aria-label={t('common.loading')}
    />
  );
}
