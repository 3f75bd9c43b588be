import { Button, Container, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLifebuoy } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useLocation, useOutletContext, useParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import { useSession } from '../../../shared/session/current-user';
import { SupportForm } from './support-form';

/** Anonymous visitors see a sign-in prompt instead of the form. */
function SignInPrompt() {
  const { t } = useTranslation();
  const location = useLocation();
  return (
    <Paper withBorder radius="md" p="xl">
      <Stack align="center" gap="sm" ta="center">
        <IconLifebuoy size={36} stroke={1.5} aria-hidden />
        <Title order={2} size="h4">
          {t('support.login.title')}
        </Title>
        <Text c="dimmed">{t('support.login.text')}</Text>
        <Button component={Link} to={`/login?redirectUri=${encodeURIComponent(location.pathname)}`}>
          {t('support.login.action')}
        </Button>
      </Stack>
    </Paper>
  );
}

/** The form for signed-in users; a sign-in prompt for others; portal home while support is disabled. */
function SupportBody({ apiId }: { apiId?: string }) {
  const { user } = useSession();
  const config = useConfig();
  if (!config.portal.support.enabled) return <Navigate to="/" replace />;
  return user ? <SupportForm user={user} apiId={apiId} /> : <SignInPrompt />;
}

/** `/support`: a ticket about any API, or about none (it then goes to the platform's support address). */
export function SupportPage() {
  const { t } = useTranslation();
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1} size="h2">
            {t('support.title')}
          </Title>
          <Text c="dimmed">{t('support.subtitle')}</Text>
        </div>
        <SupportBody />
      </Stack>
    </Container>
  );
}

/** `/apis/{apiId}/support`, inside the API's page: a ticket to the API's owner. */
export function ApiSupportPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const api = useOutletContext<{ name: string } | undefined>();
  return (
    <Stack gap="lg" maw={760}>
      <div>
        <Title order={2} size="h3">
          {t('support.apiTitle')}
        </Title>
        <Text c="dimmed">{t('support.apiSubtitle', { api: api?.name ?? '' })}</Text>
      </div>
      <SupportBody apiId={apiId} />
    </Stack>
  );
}
