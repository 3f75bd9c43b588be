import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../../shared/ui/notify';
import { useCreateUser } from '../api/users';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * management.settings.newuser (`/settings/users/new`): only the email is needed; the user gets a mail
 * with a link to choose a password and finish the account.
 */
export function UserNewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateUser();
  const [value, setValue] = useState({ firstname: '', lastname: '', email: '' });
  const [touched, setTouched] = useState(false);
  const email = value.email.trim();
  const emailError = !touched
    ? undefined
    : !email
      ? t('settingsUsers.create.emailRequired')
      : !EMAIL.test(email)
        ? t('settingsUsers.create.emailInvalid')
        : undefined;
  const invalid = !EMAIL.test(email);
  const pristine = !value.email && !value.firstname && !value.lastname;
  return (
    <Stack gap="lg" maw={560}>
      <Anchor component={Link} to="/management/settings/users" size="sm">
        <Group gap={4}>
          <IconArrowLeft size={14} />
          {t('settingsUsers.detail.back')}
        </Group>
      </Anchor>
      <div>
        <Title order={1} size="h2">
          {t('settingsUsers.create.title')}
        </Title>
        <Text c="dimmed">{t('settingsUsers.create.subtitle')}</Text>
      </div>
      <Paper withBorder p="lg" radius="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setTouched(true);
            if (invalid) return;
            create.mutate(
              {
                email,
                ...(value.firstname.trim() ? { firstname: value.firstname.trim() } : {}),
                ...(value.lastname.trim() ? { lastname: value.lastname.trim() } : {}),
              },
              {
                onSuccess: (user) => {
                  notifySuccess('settingsUsers.create.done', { email });
                  void navigate(`/management/settings/users/${encodeURIComponent(user.id)}`);
                },
              },
            );
          }}
        >
          <Stack gap="md">
            <TextInput
              label={t('settingsUsers.create.email')}
              type="email"
              required
              value={value.email}
              error={emailError}
              onBlur={() => setTouched(true)}
              onChange={(event) => setValue({ ...value, email: event.currentTarget.value })}
              autoComplete="off"
            />
            <TextInput
              label={t('settingsUsers.create.firstname')}
              value={value.firstname}
              onChange={(event) => setValue({ ...value, firstname: event.currentTarget.value })}
              autoComplete="off"
            />
            <TextInput
              label={t('settingsUsers.create.lastname')}
              value={value.lastname}
              onChange={(event) => setValue({ ...value, lastname: event.currentTarget.value })}
              autoComplete="off"
            />
            <Group>
              <Button type="submit" disabled={pristine || invalid} loading={create.isPending}>
                {t('settingsUsers.create.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
