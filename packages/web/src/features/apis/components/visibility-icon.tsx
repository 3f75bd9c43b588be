import { Tooltip } from '@mantine/core';
import { IconLock, IconWorld } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { ApiVisibility } from '../api/types';

/** A world for PUBLIC APIs, a lock for PRIVATE ones, with the word as tooltip and label. */
export function VisibilityIcon({ visibility, size = 18 }: { visibility: ApiVisibility; size?: number }) {
  const { t } = useTranslation();
  const label = visibility === 'PUBLIC' ? t('apis.visibility.public') : t('apis.visibility.private');
  const Icon = visibility === 'PUBLIC' ? IconWorld : IconLock;
  return (
    <Tooltip label={label}>
      <Icon size={size} stroke={1.6} aria-label={label} role="img" color="var(--mantine-color-gray-6)" />
    </Tooltip>
  );
}
