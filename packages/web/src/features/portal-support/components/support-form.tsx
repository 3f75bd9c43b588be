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
  useSupportApplications,
} from '../api/tickets';
import { ApiChoiceField } from './api-choice';

interface SupportFormProps {
  user: CurrentUser;
  /** The API of the route: the API choice is then hidden. */
  apiId?: string | undefined;
}

const EMPTY: TicketValues = { api: '', application: '', subject: '', content: '', copyToSender: false };

/**
 * The ticket form (portal-and-platform.md 2, Support ticket form): API (unless given, found by search),
 * application, subject, content, copy to sender. Send stays disabled while the form is pristine or invalid, and for a
 * user without an email, who is told so.
 */
export function SupportForm({ user, apiId }: SupportFormProps) {
  const { t } = useTranslation();
  const withoutEmail = !user.email;
  const applications = useSupportApplications(!withoutEmail);
  const create = useCreateTicket();
  const form = useForm<TicketValues>({
    initialValues: { ...EMPTY, api: apiId ?? '' },
    validate: schemaResolver(ticketSchema, { sync: true }),
    validateInputOnChange: true,
  });
  const disabled = withoutEmail || create.isPending;
  const application = applications.data?.find((a) => a.id === form.values.application);

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
              <ApiChoiceField
                value={form.values.api}
                onChange={(value) => form.setFieldValue('api', value)}
                application={application}
                disabled={disabled}
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
