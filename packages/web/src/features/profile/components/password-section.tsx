import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { isHttpError } from '../../../shared/http';
import { ValidationMessages, newPasswordField } from '../../../shared/lib/account-validation';
import { PasswordField } from '../../../shared/ui/password-field';
import { notifySuccess } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import { WRONG_CURRENT_PASSWORD, useChangeOwnPassword } from '../api/change-own-password';

const changePasswordSchema = z
  .object({
    oldPassword: z.string().min(1, ValidationMessages.required),
    password: newPasswordField,
    confirmedPassword: z.string().min(1, ValidationMessages.required),
  })
  .refine((values) => values.password === values.confirmedPassword, {
    message: ValidationMessages.passwordMismatch,
    path: ['confirmedPassword'],
  });

const EMPTY = { oldPassword: '', password: '', confirmedPassword: '' };

/**
 * The account page's password section: the current password, the new one and its confirmation ('The
 * confirm password is different!'); users of an identity provider have no password here.
 */
export function PasswordSection() {
  const { t } = useTranslation();
  const change = useChangeOwnPassword();
  const form = useForm({
    initialValues: EMPTY,
    validate: schemaResolver(changePasswordSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  return (
    <Paper withBorder radius="md" p="xl" component="section" aria-labelledby="password-title">
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          change.mutate(values, {
            onSuccess: () => {
              notifySuccess('profile.password.changed');
              form.setValues(EMPTY);
              form.resetDirty(EMPTY);
              form.resetTouched();
            },
            // The catalogue says why; a wrong current password is typed again.
            onError: (error) => {
              if (isHttpError(error) && error.status === 400 && error.text === WRONG_CURRENT_PASSWORD) {
                form.setFieldValue('oldPassword', '');
                form.getInputNode('oldPassword')?.focus();
              }
            },
          }),
        )}
      >
        <Stack gap="md" maw={420}>
          <div>
            <Title order={2} size="h4" id="password-title">
              {t('profile.password.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('profile.password.hint')}
            </Text>
          </div>
          <PasswordField
            label={t('profile.password.current')}
            autoComplete="current-password"
            withAsterisk
            {...translatedInput(form.getInputProps('oldPassword'), t)}
          />
          <PasswordField
            label={t('account.newPassword')}
            description={t('account.passwordHint')}
            autoComplete="new-password"
            withAsterisk
            {...translatedInput(form.getInputProps('password'), t)}
          />
          <PasswordField
            label={t('account.confirmPassword')}
            autoComplete="new-password"
            withAsterisk
            {...translatedInput(form.getInputProps('confirmedPassword'), t)}
          />
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending} disabled={!form.isDirty() || !form.isValid()}>
              {t('profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
