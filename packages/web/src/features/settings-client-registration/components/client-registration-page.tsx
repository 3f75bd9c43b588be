import {
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  TagsInput,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import type { ClientRegistrationProviderJson } from '@portico/model';
import { CLIENT_REGISTRATION_MESSAGES, ClientRegistrationProviderInput } from '@portico/model';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { useClientRegistrationProvider, useSaveClientRegistrationProvider } from '../api/providers';

interface Values {
  name: string;
  description: string;
  discovery_endpoint: string;
  client_id: string;
  client_secret: string;
  scopes: string[];
}

const valuesOf = (p?: ClientRegistrationProviderJson): Values => ({
  name: p?.name ?? '',
  description: p?.description ?? '',
  discovery_endpoint: p?.discovery_endpoint ?? '',
  client_id: p?.client_id ?? '',
  client_secret: p?.client_secret ?? '',
  scopes: p?.scopes ?? [],
});

/** The server's rules; on creation the secret is required too. */
const schemaFor = (create: boolean) =>
  ClientRegistrationProviderInput.extend({
    client_secret: create
      ? z.string().trim().min(1, CLIENT_REGISTRATION_MESSAGES.clientSecretRequired)
      : z.string(),
  });

/**
 * `/management/settings/client-registration/new` and `/{id}` (management.settings.clientregistrationprovider
 * and .create): General (name, description) and Configuration (discovery endpoint, client id and secret,
 * scopes as chips); Create or Update, and Reset.
 */
export function ClientRegistrationPage() {
  const { providerId } = useParams();
  const provider = useClientRegistrationProvider(providerId);
  if (providerId && !provider.data) return null;
  return <ProviderForm key={provider.data?.updated_at ?? 'new'} provider={provider.data} />;
}

function ProviderForm({ provider }: { provider?: ClientRegistrationProviderJson }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const save = useSaveClientRegistrationProvider(provider?.id);
  const create = !provider;
  const allowed = hasPermission(
    user,
    create ? 'portal-client_registration_provider-c' : 'portal-client_registration_provider-u',
  );
  const form = useForm<Values>({
    mode: 'controlled',
    initialValues: valuesOf(provider),
    validate: schemaResolver(schemaFor(create)),
    validateInputOnChange: true,
  });
  const message = (error: unknown) => (typeof error === 'string' ? error : undefined);
  const field = (name: keyof Values) => {
    const props = form.getInputProps(name);
    return { ...props, error: message(props.error), readOnly: !allowed };
  };
  const submit = form.onSubmit((values) =>
    save.mutate(
      {
        ...values,
        description: values.description || null,
        client_secret: values.client_secret || undefined,
      },
      {
        onSuccess: (saved) => {
          notifySuccess(
            create ? 'settingsClientRegistration.created' : 'settingsClientRegistration.updated',
            {
              name: saved.name,
            },
          );
          if (create)
            void navigate(`/management/settings/client-registration/${encodeURIComponent(saved.id)}`);
          else form.resetDirty(valuesOf(saved));
        },
      },
    ),
  );

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Anchor component={Link} to="/management/settings/client-registration" size="sm">
          {t('settingsClientRegistration.back')}
        </Anchor>
        <Title order={2} size="h3">
          {provider ? provider.name : t('settingsClientRegistration.createTitle')}
        </Title>
        <Paper withBorder p="md">
          <Stack>
            <Title order={3} size="h5">
              {t('settingsClientRegistration.general')}
            </Title>
            <TextInput
              label={t('settingsClientRegistration.name')}
              description={t('settingsClientRegistration.nameHint')}
              required
              {...field('name')}
            />
            <Textarea
              label={t('settingsClientRegistration.description')}
              autosize
              minRows={2}
              {...field('description')}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack>
            <Title order={3} size="h5">
              {t('settingsClientRegistration.configuration')}
            </Title>
            <TextInput
              label={t('settingsClientRegistration.discoveryEndpoint')}
              placeholder="https://idp.example.com/.well-known/openid-configuration"
              required
              {...field('discovery_endpoint')}
            />
            <TextInput label={t('settingsClientRegistration.clientId')} required {...field('client_id')} />
            <PasswordInput
              label={t('settingsClientRegistration.clientSecret')}
              required={create}
              {...field('client_secret')}
            />
            <TagsInput
              label={t('settingsClientRegistration.scopes')}
              description={t('settingsClientRegistration.scopesHint')}
              {...form.getInputProps('scopes')}
              readOnly={!allowed}
            />
          </Stack>
        </Paper>
        {allowed && (
          <Group>
            <Button type="submit" disabled={!form.isDirty() || !form.isValid()} loading={save.isPending}>
              {create ? t('settingsClientRegistration.create') : t('settingsClientRegistration.update')}
            </Button>
            <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
              {t('settingsClientRegistration.reset')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
