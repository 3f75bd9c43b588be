import { Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Settings > Views (console-applications-and-settings.md 2.3). */
export function ViewsPage() {
  const { t } = useTranslation();
  return (
    <Title order={2} size="h3">
      {t('settings.menu.views')}
    </Title>
  );
}
