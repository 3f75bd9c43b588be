import { Button, Group, Paper, Stack, TextInput, Textarea, Title } from '@mantine/core';
import { APPLICATION_NAME_MAX, CLIENT_ID_MAX } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Application } from '../../applications/api/types';
import { useCreateSimpleApplication } from '../api/subscribe-api';

/**
 * A simple application made from the wizard (name, description and its client id, which OAuth2 and
 * JWT plans need); the created application becomes the chosen one.
 */
export function NewApplicationForm({
  clientIdNeeded,
  onCreated,
  onCancel,
}: {
  clientIdNeeded: boolean;
  onCreated: (application: Application) => void;
  onCancel?: (() => void) | undefined;
}) {
  const { t } = useTranslation();
  const create = useCreateSimpleApplication();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [clientId, setClientId] = useState('');
  const [touched, setTouched] = useState(false);
  const nameError = !name.trim()
    ? t('portalSubscribe.newApplication.nameRequired')
    : name.trim().length > APPLICATION_NAME_MAX
      ? t('portalSubscribe.newApplication.nameTooLong', { max: APPLICATION_NAME_MAX })
      : null;
  const descriptionError = !description.trim()
    ? t('portalSubscribe.newApplication.descriptionRequired')
    : null;
  const clientIdError =
    clientIdNeeded && !clientId.trim() ? t('portalSubscribe.application.clientIdRequired') : null;
  const valid = !nameError && !descriptionError && !clientIdError;

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="new-application">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTouched(true);
          if (!valid) return;
          create.mutate({ name, description, clientId }, { onSuccess: onCreated });
        }}
      >
        <Stack gap="sm">
          <Title order={3} size="h5" id="new-application">
            {t('portalSubscribe.newApplication.title')}
          </Title>
          <TextInput
            label={t('portalSubscribe.newApplication.name')}
            required
            value={name}
            maxLength={APPLICATION_NAME_MAX + 1}
            onChange={(event) => setName(event.currentTarget.value)}
            error={touched && nameError}
          />
          <Textarea
            label={t('portalSubscribe.newApplication.description')}
            required
            autosize
            minRows={2}
            value={description}
            onChange={(event) => setDescription(event.currentTarget.value)}
            error={touched && descriptionError}
          />
          <TextInput
            label={t('portalSubscribe.newApplication.clientId')}
            description={t('portalSubscribe.newApplication.clientIdHint')}
            required={clientIdNeeded}
            value={clientId}
            maxLength={CLIENT_ID_MAX}
            onChange={(event) => setClientId(event.currentTarget.value)}
            error={touched && clientIdError}
          />
          <Group justify="flex-end" gap="sm">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                {t('common.cancel')}
              </Button>
            )}
            <Button type="submit" loading={create.isPending}>
              {t('portalSubscribe.newApplication.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
