import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateServerText } from '../i18n/server-messages';

/** 503: the server's message (or 'Server unavailable') replaces the page body. */
export function UnavailablePage({ text }: { text: string | undefined }) {
  const { t } = useTranslation();
  return (
    <Center mih="100vh" p="xl">
      <Stack align="center" gap="md" maw={560} role="alert">
        <Title order={1} size="h2" ta="center">
          {text ? translateServerText(text) : t('errors.serverUnavailable')}
        </Title>
        <Text c="dimmed" ta="center">
          {t('errors.unavailableHint')}
        </Text>
        <Button onClick={() => window.location.reload()}>{t('errors.reloadPage')}</Button>
      </Stack>
    </Center>
  );
}
