import {
  Anchor,
  Button,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Switch,
  TagsInput,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import type { IdentityProviderJson, IdentityProviderType } from '@portico/model';
import {
  DEFAULT_IDENTITY_PROVIDER_COLOR,
  IDENTITY_PROVIDER_MESSAGES,
  IDENTITY_PROVIDER_NAME_MAX,
  IDENTITY_PROVIDER_TYPES,
  identityProviderIssue,
} from '@portico/model';
import { http } from '../../../shared/http';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useDeleteIdentityProvider, useIdentityProvider, useSaveIdentityProvider } from '../api/identities';
import type { IdentityFormValues } from './identity-form';
import { toInput, valuesOf } from './identity-form';
import { MappingsFields } from './identity-mappings-fields';
import { CONFIGURATION_FIELDS, typeLabel } from './identity-types';

/** `/management/settings/identities/new?type=` and `/{id}`: the identity provider form. */
export function IdentityPage() {
  const { identityId } = useParams();
  const [search] = useSearchParams();
  const provider = useIdentityProvider(identityId);
  if (identityId && !provider.data) return null;
  const asked = search.get('type') as IdentityProviderType;
  const type = provider.data?.type ?? (IDENTITY_PROVIDER_TYPES.includes(asked) ? asked : 'oidc');
  return <IdentityForm key={provider.data?.updated_at ?? type} type={type} provider={provider.data} />;
}

function IdentityForm({ type, provider }: { type: IdentityProviderType; provider?: IdentityProviderJson }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const save = useSaveIdentityProvider(provider?.id);
  const remove = useDeleteIdentityProvider();
  const [deleting, setDeleting] = useState(false);
  const create = !provider;
  const allowed = hasPermission(user, create ? 'portal-identity_provider-c' : 'portal-identity_provider-u');
  const canDelete = !create && hasPermission(user, 'portal-identity_provider-d');
  const form = useForm<IdentityFormValues>({
    mode: 'controlled',
    initialValues: valuesOf(type, provider),
    validateInputOnChange: true,
    validate: (values) => {
      const errors: Record<string, string> = {};
      if (!values.name.trim()) errors.name = IDENTITY_PROVIDER_MESSAGES.nameRequired;
      else if (values.name.length > IDENTITY_PROVIDER_NAME_MAX)
        errors.name = IDENTITY_PROVIDER_MESSAGES.nameTooLong;
      const input = toInput(type, values);
      const issue = identityProviderIssue(type, input.configuration!, input.userProfileMapping);
      if (issue && !(issue.field === 'configuration.clientSecret' && !create))
        errors[issue.field] = issue.message;
      values.groupMappings.forEach((m, i) => {
        if (!m.condition.trim())
          errors[`groupMappings.${i}.condition`] = IDENTITY_PROVIDER_MESSAGES.conditionRequired;
        if (m.groups.length === 0)
          errors[`groupMappings.${i}.groups`] = IDENTITY_PROVIDER_MESSAGES.groupsRequired;
      });
      values.roleMappings.forEach((m, i) => {
        if (!m.condition.trim())
          errors[`roleMappings.${i}.condition`] = IDENTITY_PROVIDER_MESSAGES.conditionRequired;
      });
      return errors;
    },
  });
  const field = (name: string) => ({ ...form.getInputProps(name), readOnly: !allowed });
  const submit = form.onSubmit((values) =>
    save.mutate(toInput(type, values), {
      onSuccess: (saved) => {
        notifySuccess(create ? 'settingsIdentities.created' : 'settingsIdentities.updated', {
          name: saved.name,
        });
        if (create) void navigate(`/management/settings/identities/${encodeURIComponent(saved.id)}`);
      },
    }),
  );
  const fieldsOfType = CONFIGURATION_FIELDS[type];

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Anchor component={Link} to="/management/settings/identities" size="sm">
          {t('settingsIdentities.back')}
        </Anchor>
        <Title order={2} size="h3">
          {provider ? provider.name : t('settingsIdentities.createTitle', { type: typeLabel(t, type) })}
        </Title>
        <Paper withBorder p="md">
          <Stack>
            <Switch
              label={t('settingsIdentities.enabled')}
              {...form.getInputProps('enabled', { type: 'checkbox' })}
              disabled={!allowed}
            />
            <TextInput label={t('settingsIdentities.name')} required {...field('name')} />
            <Textarea
              label={t('settingsIdentities.description')}
              autosize
              minRows={2}
              {...field('description')}
            />
            {provider && type === 'oidc' && (
              <TextInput
                label={t('settingsIdentities.tokenExchangeEndpoint')}
                value={`${http.managementBaseURL}auth/oauth2/${provider.id}`}
                readOnly
              />
            )}
            <Switch
              label={t('settingsIdentities.emailRequired')}
              {...form.getInputProps('emailRequired', { type: 'checkbox' })}
              disabled={!allowed}
            />
          </Stack>
        </Paper>
        <Paper withBorder p="md">
          <Stack>
            <Title order={3} size="h5">
              {t('settingsIdentities.configuration')}
            </Title>
            {fieldsOfType.map((key) =>
              key === 'clientSecret' ? (
                <PasswordInput
                  key={key}
                  label={t(`settingsIdentities.fields.${key}`)}
                  required={create}
                  {...field(`configuration.${key}`)}
                />
              ) : key === 'scopes' ? (
                <TagsInput
                  key={key}
                  label={t('settingsIdentities.fields.scopes')}
                  {...field('configuration.scopes')}
                />
              ) : (
                <TextInput
                  key={key}
                  label={t(`settingsIdentities.fields.${key}`)}
                  placeholder={key === 'color' ? DEFAULT_IDENTITY_PROVIDER_COLOR : undefined}
                  {...field(`configuration.${key}`)}
                />
              ),
            )}
          </Stack>
        </Paper>
        {provider && <MappingsFields form={form} readOnly={!allowed} />}
        <Group>
          {allowed && (
            <>
              <Button type="submit" disabled={!form.isDirty() || !form.isValid()} loading={save.isPending}>
                {create ? t('settingsIdentities.create') : t('settingsIdentities.save')}
              </Button>
              <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
                {t('settingsIdentities.reset')}
              </Button>
            </>
          )}
          {canDelete && (
            <Button color="red" variant="light" onClick={() => setDeleting(true)}>
              {t('settingsIdentities.delete')}
            </Button>
          )}
        </Group>
      </Stack>
      <ConfirmDialog
        opened={deleting}
        title={t('settingsIdentities.delete')}
        confirmLabel={t('settingsIdentities.delete')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(provider!.id, {
            onSuccess: () => {
              notifySuccess('settingsIdentities.deleted', { name: provider!.name });
              void navigate('/management/settings/identities');
            },
          })
        }
      >
        <ConfirmText>{t('settingsIdentities.confirmDelete', { name: provider?.name ?? '' })}</ConfirmText>
      </ConfirmDialog>
    </form>
  );
}
