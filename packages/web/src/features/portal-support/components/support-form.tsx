import { Alert, Button, Checkbox, Group, Paper, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CurrentUser } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { TicketValues } from '../api/tickets';
import {
  CONTENT_MAX,
  SUBJECT_MAX,
  ticketSchema,
  toTicket,
  useCreateTicket,
  useSupportApis,
  useSupportApplications,
} from '../api/tickets';

interface SupportFormProps {
  user: CurrentUser;
  /** The API of the route: the API choice is then hidden. */
  apiId?: string | undefined;
}

const EMPTY: TicketValues = { api: '', application: '', subject: '', content: '', copyToSender: false };

/**
 * The ticket form (portal-and-platform.md 2, Support ticket form): API (unless given), application,
 * subject, content, copy to sender. Send stays disabled while the form is pristine or invalid, and for a
 * user without an email, who is told so.
 */
export function SupportForm({ user, apiId }: SupportFormProps) {
  const { t } = useTranslation();
  const withoutEmail = !user.email;
  const apis = useSupportApis(!apiId && !withoutEmail);
  const applications = useSupportApplications(!withoutEmail);
  const create = useCreateTicket();
  const form = useForm<TicketValues>({
    initialValues: { ...EMPTY, api: apiId ?? '' },
    validate: schemaResolver(ticketSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const disabled = withoutEmail || create.isPending;

  return (
    <Paper withBorder radius="md" p="xl">
      {withoutEmail && (
        <Alert
          color="orange"
          variant="light"
          icon={<IconAlertTriangle size={18} aria-hidden />}
          title={t('support.ticket.userWithoutEmail.title')}
          mb="lg"
        >
          {t('support.ticket.userWithoutEmail.message')}{' '}
          <Link to="/user">{t('support.ticket.userWithoutEmail.action')}</Link>
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          create.mutate(toTicket(values), {
            onSuccess: () => {
              notifySuccess('support.ticket.created');
              form.reset();
            },
          }),
        )}
      >
        <fieldset disabled={disabled} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="md">
            {!apiId && (
              <Select
                label={t('support.ticket.api')}
                placeholder={t('support.ticket.apiPlaceholder')}
                data={(apis.data ?? []).map((a) => ({
                  value: a.id,
                  label: a.version ? `${a.name} (${a.version})` : a.name,
                }))}
                searchable
                clearable
                nothingFoundMessage={t('support.ticket.nothingFound')}
                disabled={disabled}
                value={form.values.api || null}
                onChange={(value) => form.setFieldValue('api', value ?? '')}
              />
            )}
            <Select
              label={t('support.ticket.application')}
              placeholder={t('support.ticket.applicationPlaceholder')}
              data={(applications.data ?? []).map((a) => ({ value: a.id, label: a.name }))}
              searchable
              clearable
              nothingFoundMessage={t('support.ticket.nothingFound')}
              disabled={disabled}
              value={form.values.application || null}
              onChange={(value) => form.setFieldValue('application', value ?? '')}
            />
            <TextInput
              label={t('support.ticket.subject')}
              withAsterisk
              maxLength={SUBJECT_MAX}
              {...translatedInput(form.getInputProps('subject'), t)}
            />
            <Textarea
              label={t('support.ticket.content')}
              withAsterisk
              autosize
              minRows={6}
              maxRows={16}
              maxLength={CONTENT_MAX}
              {...translatedInput(form.getInputProps('content'), t)}
            />
            <Checkbox
              label={t('support.ticket.copyToSender')}
              {...form.getInputProps('copyToSender', { type: 'checkbox' })}
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={create.isPending}
                disabled={withoutEmail || !form.isDirty() || !form.isValid()}
              >
                {t('support.ticket.send')}
              </Button>
            </Group>
          </Stack>
        </fieldset>
      </form>
    </Paper>
  );
}
