import { Badge, Button, Container, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import {
  emailSchema,
  nameSchema,
  optionalEmailSchema,
  optionalNameSchema,
} from '../../../shared/lib/account-validation';
import { useSession } from '../../../shared/session/current-user';
import type { Session } from '../../../shared/session/current-user';
import { notifySuccess } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import { useUpdateProfile } from '../api/update-profile';
import { PasswordSection } from './password-section';
import { PictureField, usePictureChange } from './picture-field';

/** The source of the users of the product's own user store: they have a password here. */
const PORTICO_SOURCE = 'portico';

type ProfileValues = { firstname: string; lastname: string; email: string };

/**
 * The profile form's schema: a field the user already filled can be changed but not emptied (the server
 * keeps a value once set); an empty one may stay empty.
 */
export function profileSchema(initial: ProfileValues) {
  return z.object({
    firstname: initial.firstname ? nameSchema : optionalNameSchema,
    lastname: initial.lastname ? nameSchema : optionalNameSchema,
    email: initial.email ? emailSchema : optionalEmailSchema,
  });
}

/** The filled fields: empty ones are not sent. */
const filled = (values: ProfileValues) =>
  Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')) as Partial<ProfileValues>;

/** /user: the signed-in user's profile (names, email, picture) and roles. */
export function ProfilePage() {
  const { t } = useTranslation();
  const session = useSession();
  if (!session.user) return null; // the route guard sends visitors to login
  return (
    <Container size="md" py="xl">
      <Stack gap="lg">
        <div>
          <Title order={1} size="h2">
            {t('profile.title')}
          </Title>
          <Text c="dimmed">{t('profile.subtitle')}</Text>
        </div>
        <ProfileForm session={{ user: session.user, etag: session.etag }} />
        {/* Users of an identity provider change their password there. */}
        {session.user.source === PORTICO_SOURCE && <PasswordSection />}
        <Paper withBorder radius="md" p="xl">
          <Title order={2} size="h4" mb="sm">
            {t('profile.roles')}
          </Title>
          {session.user.roles.length === 0 ? (
            <Text c="dimmed" size="sm">
              {t('profile.noRole')}
            </Text>
          ) : (
            <Group gap="xs">
              {session.user.roles.map((role) => (
                <Badge key={`${role.scope}-${role.name}`} variant="light" size="lg" tt="none">
                  {t('profile.role', { scope: role.scope, name: role.name })}
                </Badge>
              ))}
            </Group>
          )}
        </Paper>
      </Stack>
    </Container>
  );
}

function ProfileForm({ session }: { session: Session }) {
  const { t } = useTranslation();
  const { user, etag } = session;
  const update = useUpdateProfile();
  const picture = usePictureChange();
  const [initial] = useState<ProfileValues>(() => ({
    firstname: user.firstname ?? '',
    lastname: user.lastname ?? '',
    email: user.email ?? '',
  }));
  const [schema] = useState(() => profileSchema(initial));
  const form = useForm({
    initialValues: initial,
    validate: schemaResolver(schema, { sync: true }),
    validateInputOnChange: true,
  });
  const dirty = form.isDirty() || picture.value !== undefined;

  return (
    <Paper withBorder radius="md" p="xl">
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          const valid = filled(schema.parse(values));
          update.mutate(
            {
              changes: { ...valid, ...(picture.value !== undefined ? { picture: picture.value } : {}) },
              etag,
            },
            {
              onSuccess: () => {
                notifySuccess('profile.saved');
                form.setInitialValues(values);
                form.resetDirty(values);
                picture.reset();
              },
            },
          );
        })}
      >
        <Group align="flex-start" gap="xl" wrap="wrap">
          <PictureField user={user} change={picture} />
          <Stack gap="md" flex={1} miw={260}>
            <TextInput
              label={t('profile.username')}
              value={user.username}
              readOnly
              description={t('profile.usernameHint')}
            />
            <Group grow align="flex-start">
              <TextInput
                label={t('account.firstname')}
                autoComplete="given-name"
                withAsterisk={!!initial.firstname}
                {...translatedInput(form.getInputProps('firstname'), t)}
              />
              <TextInput
                label={t('account.lastname')}
                autoComplete="family-name"
                withAsterisk={!!initial.lastname}
                {...translatedInput(form.getInputProps('lastname'), t)}
              />
            </Group>
            <TextInput
              label={t('account.email')}
              type="email"
              autoComplete="email"
              withAsterisk={!!initial.email}
              {...translatedInput(form.getInputProps('email'), t)}
            />
            <Group justify="flex-end" gap="sm" mt="xs">
              <Button
                variant="default"
                disabled={!dirty || update.isPending}
                onClick={() => {
                  form.reset();
                  picture.reset();
                }}
              >
                {t('common.reset')}
              </Button>
              <Button
                type="submit"
                loading={update.isPending}
                disabled={!dirty || !form.isValid() || !!picture.problem}
              >
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </Group>
      </form>
    </Paper>
  );
}
