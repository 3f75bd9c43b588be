import { Alert, Button, Stack } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { newPasswordSchema } from '../../../shared/lib/account-validation';
import { readAccountLink } from '../../../shared/lib/account-token';
import { isHttpError } from '../../../shared/http';
import { PasswordField } from '../../../shared/ui/password-field';
import { AccountCard } from '../../../shared/ui/account-card';
import { translateServerText } from '../../../shared/i18n/server-messages';
import { notifySuccess } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import { useChangePassword } from '../api/change-password';

/**
 * /resetPassword/:token: a new password and its confirmation for the user the link names. An expired
 * link says 'Your token is expired!'; success goes to login.
 */
export function ResetPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const link = useMemo(() => readAccountLink(token), [token]);
  const userId = link.claims.sub;
  const change = useChangePassword();
  const form = useForm({
    initialValues: { password: '', confirmedPassword: '' },
    validate: schemaResolver(newPasswordSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  const linkProblem = link.problem ?? (userId ? undefined : 'object');
  const problem = linkProblem
    ? linkProblem === 'expired'
      ? t('account.tokenExpired')
      : t(`account.tokenInvalid.${linkProblem}`)
    : change.isError
      ? (isHttpError(change.error) && translateServerText(change.error.text)) || t('errors.unexpected')
      : undefined;

  return (
    <AccountCard
      title={t('resetPassword.title')}
      subtitle={
        link.claims.email
          ? t('resetPassword.subtitleFor', { email: link.claims.email })
          : t('resetPassword.subtitle')
      }
    >
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) => {
          if (!userId) return;
          change.mutate(
            { userId, token, password: values.password },
            {
              onSuccess: () => {
                notifySuccess('resetPassword.success');
                void navigate('/login', { replace: true });
              },
            },
          );
        })}
      >
        <fieldset disabled={!!linkProblem} style={{ border: 0, padding: 0, margin: 0 }}>
          <Stack gap="md">
            <PasswordField
              label={t('account.newPassword')}
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
            <Button type="submit" fullWidth loading={change.isPending} disabled={!form.isValid()}>
              {t('resetPassword.submit')}
            </Button>
          </Stack>
        </fieldset>
      </form>
    </AccountCard>
  );
}
