import {
  ActionIcon,
  Alert,
  Button,
  CopyButton,
  Group,
  MultiSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconCheck, IconCopy, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { useSession } from '../../../shared/session/current-user';
import { useApplicationPermissions } from '../../../shared/session/application-permissions';
import { isAdmin } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  useApplication,
  useDeleteApplication,
  useGroups,
  useRenewApplicationSecret,
  useUpdateApplication,
} from '../api/applications';
import type { Application } from '../api/types';
import type { ApplicationFormValues } from '../rules';
import { applicationFormSchema, settingsOf } from '../rules';
import { GeneralFields, TypeSettingsFields } from './application-fields';
import classes from './applications.module.css';

const valuesOf = (app: Application): ApplicationFormValues => ({
  name: app.name,
  description: app.description,
  type: app.type,
  appType: app.settings.app?.type ?? '',
  clientId: app.settings.app?.client_id ?? '',
  grantTypes: app.settings.oauth?.grant_types ?? [],
  redirectUris: app.settings.oauth?.redirect_uris ?? [],
  groups: app.groups,
});

/**
 * The general page of an application (`/management/applications/{applicationId}`): edit, reset and
 * delete (application-definition-u and -d); administrators also choose its groups.
 */
export function ApplicationGeneralPage() {
  const { applicationId = '' } = useParams();
  const application = useApplication(applicationId);
  if (!application.data) return null;
  return <GeneralForm key={application.data.updated_at} application={application.data} />;
}

function GeneralForm({ application }: { application: Application }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useSession();
  const permissions = useApplicationPermissions(application.id);
  const admin = isAdmin(user);
  const groups = useGroups(admin);
  const update = useUpdateApplication(application.id);
  const remove = useDeleteApplication(application.id);
  const [deleting, setDeleting] = useState(false);
  const renew = useRenewApplicationSecret(application.id);
  const [renewing, setRenewing] = useState(false);
  const canUpdate = permissions.has('application-definition-u');
  const form = useForm<ApplicationFormValues>({
    initialValues: valuesOf(application),
    validate: schemaResolver(applicationFormSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const oauth = application.settings.oauth;
  const groupOptions = [
    ...new Map([
      ...(groups.data ?? []).map((g) => [g.id, g.name] as const),
      ...application.groups
        .filter((id) => !groups.data?.some((g) => g.id === id))
        .map((id) => [id, id] as const),
    ]),
  ].map(([value, label]) => ({ value, label }));

  return (
    <Stack gap="lg">
      <form
        noValidate
        onSubmit={form.onSubmit((v) =>
          update.mutate(
            {
              name: v.name.trim(),
              description: v.description.trim(),
              ...(admin ? { groups: v.groups } : {}),
              settings: settingsOf(v),
            },
            { onSuccess: () => notifySuccess('applications.general.saved', { name: v.name.trim() }) },
          ),
        )}
      >
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Title order={2} size="h3">
              {t('applications.general.title')}
            </Title>
            <GeneralFields form={form} readOnly={!canUpdate} />
            <TypeSettingsFields form={form} readOnly={!canUpdate} />
            {admin && groupOptions.length > 0 && (
              <MultiSelect
                label={t('applications.fields.groups')}
                description={t('applications.fields.groupsHint')}
                data={groupOptions}
                searchable
                clearable
                readOnly={!canUpdate}
                {...form.getInputProps('groups')}
              />
            )}
            {canUpdate && (
              <Group justify="flex-end" gap="sm">
                <Button variant="default" disabled={!form.isDirty()} onClick={() => form.reset()}>
                  {t('common.reset')}
                </Button>
                <Button
                  type="submit"
                  disabled={!form.isDirty() || !form.isValid()}
                  loading={update.isPending}
                >
                  {t('common.save')}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      </form>
      {oauth && (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="sm">
            <Title order={2} size="h4">
              {t('applications.general.credentials')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('applications.general.credentialsHint')}
            </Text>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <Secret label={t('applications.general.clientId')} value={oauth.client_id} />
              <Secret label={t('applications.general.clientSecret')} value={oauth.client_secret} />
            </SimpleGrid>
            {permissions.has('application-definition-u') && (
              <Group>
                <Button
                  variant="light"
                  leftSection={<IconRefresh size={16} />}
                  onClick={() => setRenewing(true)}
                >
                  {t('applications.general.renewSecret')}
                </Button>
              </Group>
            )}
          </Stack>
        </Paper>
      )}
      {permissions.has('application-definition-d') && (
        <Paper withBorder radius="md" p="lg" style={{ borderColor: 'var(--mantine-color-red-3)' }}>
          <Stack gap="sm">
            <Title order={2} size="h4" c="red.8">
              {t('applications.general.dangerZone')}
            </Title>
            <Group justify="space-between" wrap="nowrap" gap="md">
              <Text size="sm">{t('applications.general.deleteHint')}</Text>
              <Button
                color="red"
                variant="light"
                leftSection={<IconTrash size={16} />}
                onClick={() => setDeleting(true)}
                style={{ flexShrink: 0 }}
              >
                {t('applications.general.delete')}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
      <ConfirmDialog
        opened={renewing}
        title={t('applications.general.renewSecretTitle')}
        confirmLabel={t('applications.general.renewSecret')}
        loading={renew.isPending}
        onClose={() => setRenewing(false)}
        onConfirm={() =>
          renew.mutate(undefined, {
            onSuccess: () => {
              setRenewing(false);
              notifySuccess('applications.general.secretRenewed');
            },
          })
        }
      >
        <ConfirmText>{t('applications.general.renewSecretQuestion')}</ConfirmText>
      </ConfirmDialog>
      <ConfirmDialog
        opened={deleting}
        title={t('applications.general.deleteTitle')}
        confirmLabel={t('applications.general.deleteConfirm')}
        color="red"
        typed={application.name}
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              notifySuccess('applications.general.deleted', { name: application.name });
              navigate('/management/applications');
            },
          })
        }
      >
        <Alert color="red" variant="light">
          <ConfirmText>{t('applications.general.deleteQuestion', { name: application.name })}</ConfirmText>
        </Alert>
      </ConfirmDialog>
    </Stack>
  );
}

function Secret({ label, value }: { label: string; value: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Group gap={4} wrap="nowrap">
        <Text size="sm" ff="monospace" className={classes.secret}>
          {value}
        </Text>
        <CopyButton value={value}>
          {({ copied, copy }) => (
            <Tooltip label={copied ? t('applications.general.copied') : t('applications.general.copy')}>
              <ActionIcon
                variant="subtle"
                color={copied ? 'teal' : 'gray'}
                aria-label={t('applications.general.copyOf', { name: label })}
                onClick={() => {
                  copy();
                  notifySuccess('applications.general.credentialsCopied');
                }}
              >
                {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              </ActionIcon>
            </Tooltip>
          )}
        </CopyButton>
      </Group>
    </div>
  );
}
