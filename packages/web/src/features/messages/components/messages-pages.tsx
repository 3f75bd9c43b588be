import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { MessageForm } from './message-form';

/** `/management/messages` (menu Messages, management-message-c): a message to holders of platform roles. */
export function PlatformMessagesPage() {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('broadcast.pageTitle')}
      </Title>
      <MessageForm />
    </Stack>
  );
}

/** An API's `/messages` (api-message-c): a message to the members of the applications consuming it. */
export function ApiMessagesPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  return (
    <Stack gap="lg">
      <Title order={2} size="h2">
        {t('broadcast.pageTitle')}
      </Title>
      <MessageForm apiId={apiId} />
    </Stack>
  );
}
