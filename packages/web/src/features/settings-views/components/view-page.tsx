import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Settings > Views > one view (new or existing). */
export function ViewPage() {
  const { t } = useTranslation();
  return (
    <Title order={2} size="h3">
      {t('settings.menu.views')}
    </Title>
  );
}
