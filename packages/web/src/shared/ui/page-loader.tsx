import { Center, Image } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { appUrl } from '../config/config';
import { useConfig } from '../config/config-context';

/** The theme's loader image, centred: shown while a page or the session loads. */
export function PageLoader() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Image src={appUrl(config.theme.loader)} alt={t('common.loading')} w={48} h={48} />
    </Center>
  );
}
