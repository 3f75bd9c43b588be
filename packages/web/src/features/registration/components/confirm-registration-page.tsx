import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { z } from 'zod';
import { nameSchema, newPasswordSchema } from '../../../shared/lib/account-validation';
import { readAccountLink } from '../../../shared/lib/account-token';
import { isHttpError } from '../../../shared/http';
import { PasswordField } from '../../../shared/ui/password-field';
import { AccountCard } from '../../../shared/ui/account-card';
import { translateServerText } from '../../../shared/i18n/server-messages';
import { notifySuccess } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import { useFinalizeRegistration } from '../api/registration';

const ConfirmSchema = newPasswordSchema.and(z.object({ firstname: nameSchema, lastname: nameSchema }));

/**
 * /registration/confirm/:token: first name, last name, email (read-only), password and confirmation.
 * An expired link says 'Your registration is expired!'; success goes to login.
 */
export function ConfirmRegistrationPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const link = useMemo(() => readAccountLink(token), [token]);
  const finalize = useFinalizeRegistration();
  const form = useForm({
    initialValues: {
      firstname: link.claims.firstname ?? '',
      lastname: link.claims.lastname ?? '',
      password: '',
      confirmedPassword: '',
    },
    validate: schemaResolver(ConfirmSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  const problem = link.problem
    ? link.problem === 'expired'
      ? t('account.registrationExpired')
      : t(`account.tokenInvalid.${link.problem}`)
    : finalize.isError
      ? (isHttpError(finalize.error) && translateServerText(finalize.error.text)) || t('errors.unexpected')
      : undefined;

  return (
    <AccountCard title={t('confirm.title')} subtitle={t('confirm.subtitle')}>
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) =>
          finalize.mutate(
            {
              token,
              password: values.password,
              firstname: values.firstname.trim(),
              lastname: values.lastname.trim(),
            },
            {
              onSuccess: () => {
                notifySuccess('confirm.success');
                void navigate('/login', { replace: true });
              },
            },
          ),
        )}
      >
        <fieldset disabled={!!link.problem} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="md">
            <Group grow align="flex-start">
              <TextInput
                label={t('account.firstname')}
                autoComplete="given-name"
                withAsterisk
                {...translatedInput(form.getInputProps('firstname'), t)}
              />
              <TextInput
                label={t('account.lastname')}
                autoComplete="family-name"
                withAsterisk
                {...translatedInput(form.getInputProps('lastname'), t)}
              />
            </Group>
            <TextInput
              label={t('account.email')}
              value={link.claims.email ?? ''}
              readOnly
              autoComplete="email"
            />
            <PasswordField
              label={t('account.password')}
              description={t('account.passwordHint')}
              autoComplete="new-password"
              withAsterisk
              autoFocus
              {...translatedInput(form.getInputProps('password'), t)}
            />
            <PasswordField
              label={t('account.confirmPassword')}
              autoComplete="new-password"
              withAsterisk
              {...translatedInput(form.getInputProps('confirmedPassword'), t)}
            />
            <Button type="submit" fullWidth loading={finalize.isPending} disabled={!form.isValid()}>
              {t('confirm.submit')}
            </Button>
          </Stack>
        </fieldset>
      </form>
    </AccountCard>
  );
}
