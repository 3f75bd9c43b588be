import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { Message, MessageChannel } from '../api/messages';
import { MESSAGE_CHANNELS, useRecipientRoles, useSendMessage } from '../api/messages';

/** The server's bounds (messages.validation.ts). */
export const MESSAGE_TITLE_MAX = 512;
export const MESSAGE_TEXT_MAX = 10_000;

interface HeaderRow {
  name: string;
  value: string;
}

export interface MessageFormValues {
  channel: MessageChannel;
  roles: string[];
  url: string;
  headers: HeaderRow[];
  useSystemProxy: boolean;
  title: string;
  text: string;
}

const EMPTY: MessageFormValues = {
  channel: 'PORTAL',
  roles: [],
  url: '',
  headers: [],
  useSystemProxy: false,
  title: '',
  text: '',
};

/**
 * The rules of a message (console-applications-and-settings.md section 5): text required; title and at
 * least one role required unless the channel is HTTP; URL required when HTTP. Errors are translation keys.
 */
export function validateMessage(values: MessageFormValues): Partial<Record<keyof MessageFormValues, string>> {
  const errors: Partial<Record<keyof MessageFormValues, string>> = {};
  const http = values.channel === 'HTTP';
  if (!values.text.trim()) errors.text = 'validation.required';
  else if (values.text.length > MESSAGE_TEXT_MAX) errors.text = 'validation.tooLong';
  if (!http && !values.title.trim()) errors.title = 'validation.required';
  else if (values.title.length > MESSAGE_TITLE_MAX) errors.title = 'validation.tooLong';
  if (!http && values.roles.length === 0) errors.roles = 'broadcast.rolesRequired';
  if (http) {
    const url = values.url.trim();
    if (!url) errors.url = 'validation.required';
    else if (!/^https?:\/\/[^\s/]+/i.test(url)) errors.url = 'broadcast.urlInvalid';
  }
  return errors;
}

/** The call's body: header rows with an empty name dropped (spec), recipients by channel. */
export function toMessage(values: MessageFormValues, scope: 'MANAGEMENT' | 'APPLICATION'): Message {
  if (values.channel === 'HTTP') {
    const params = Object.fromEntries(
      values.headers.filter((h) => h.name.trim() !== '').map((h) => [h.name.trim(), h.value]),
    );
    return {
      channel: 'HTTP',
      ...(values.title.trim() ? { title: values.title.trim() } : {}),
      text: values.text,
      recipient: { url: values.url.trim() },
      params,
      useSystemProxy: values.useSystemProxy,
    };
  }
  return {
    channel: values.channel,
    title: values.title.trim(),
    text: values.text,
    recipient: { role_scope: scope, role_value: values.roles },
  };
}

const CHANNEL_LABEL: Record<MessageChannel, TranslationKey> = {
  PORTAL: 'broadcast.channels.PORTAL',
  MAIL: 'broadcast.channels.MAIL',
  HTTP: 'broadcast.channels.HTTP',
};

/**
 * The broadcast form: `/management/messages` (to holders of platform roles) and an API's `/messages`
 * (to the members of its consuming applications, by APPLICATION role).
 */
export function MessageForm({ apiId }: { apiId?: string }) {
  const { t } = useTranslation();
  const scope = apiId ? 'APPLICATION' : 'MANAGEMENT';
  const roles = useRecipientRoles(scope);
  const send = useSendMessage(apiId);
  const form = useForm<MessageFormValues>({
    initialValues: EMPTY,
    validate: validateMessage,
    validateInputOnBlur: true,
  });
  const http = form.values.channel === 'HTTP';
  const input = (field: keyof MessageFormValues) => translatedInput(form.getInputProps(field), t);

  return (
    <Paper withBorder radius="md" p="xl" component="section" aria-labelledby="message-title" maw={760}>
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          send.mutate(toMessage(values, scope), {
            onSuccess: (count) => {
              // A plural key: its forms are broadcast.sent_one, broadcast.sent_other...
              notifySuccess('broadcast.sent' as TranslationKey, { count });
              form.setValues({ ...EMPTY, channel: values.channel });
              form.resetDirty();
              form.resetTouched();
            },
          }),
        )}
      >
        <Stack gap="md">
          <div>
            <Title order={2} size="h4" id="message-title">
              {t('broadcast.heading')}
            </Title>
            <Text size="sm" c="dimmed">
              {t(apiId ? 'broadcast.apiIntro' : 'broadcast.platformIntro')}
            </Text>
          </div>
          <Select
            label={t('broadcast.channel')}
            data={MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(CHANNEL_LABEL[c]) }))}
            allowDeselect={false}
            withAsterisk
            {...form.getInputProps('channel')}
          />
          {http ? (
            <>
              <TextInput
                label={t('broadcast.url')}
                placeholder="https://hooks.example.com/portico"
                withAsterisk
                {...input('url')}
              />
              <Stack gap="xs" role="group" aria-label={t('broadcast.headers')}>
                <Text size="sm" fw={500}>
                  {t('broadcast.headers')}
                </Text>
                {form.values.headers.map((_row, index) => (
                  <Group key={index} gap="xs" align="flex-end" wrap="nowrap">
                    <TextInput
                      aria-label={t('broadcast.headerName')}
                      placeholder={t('broadcast.headerName')}
                      style={{ flex: 1 }}
                      {...form.getInputProps(`headers.${index}.name`)}
                    />
                    <TextInput
                      aria-label={t('broadcast.headerValue')}
                      placeholder={t('broadcast.headerValue')}
                      style={{ flex: 2 }}
                      {...form.getInputProps(`headers.${index}.value`)}
                    />
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('broadcast.removeHeader')}
                      onClick={() => form.removeListItem('headers', index)}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Group>
                ))}
                <Group>
                  <Button
                    variant="light"
                    size="xs"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => form.insertListItem('headers', { name: '', value: '' })}
                  >
                    {t('broadcast.addHeader')}
                  </Button>
                </Group>
              </Stack>
              <Checkbox
                label={t('broadcast.useSystemProxy')}
                {...form.getInputProps('useSystemProxy', { type: 'checkbox' })}
              />
            </>
          ) : (
            <MultiSelect
              label={t('broadcast.recipients')}
              description={t(apiId ? 'broadcast.apiRecipientsHelp' : 'broadcast.platformRecipientsHelp')}
              data={roles.data ?? []}
              searchable
              withAsterisk
              {...input('roles')}
            />
          )}
          <TextInput label={t('broadcast.title')} withAsterisk={!http} {...input('title')} />
          <Textarea
            label={t('broadcast.text')}
            description={apiId ? t('broadcast.apiTextHelp') : undefined}
            autosize
            minRows={5}
            maxRows={14}
            withAsterisk
            {...input('text')}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={send.isPending} disabled={!form.isDirty()}>
              {t('broadcast.send')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
