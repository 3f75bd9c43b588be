import { Alert, Anchor, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useLoaderData, useNavigate, useSearchParams } from 'react-router';
import { z } from 'zod';
import { useConfig } from '../../../shared/config/config-context';
import { ValidationMessages } from '../../../shared/lib/account-validation';
import {
  DEFAULT_PROVIDER_COLOR,
  startProviderLogin,
  useIdentityProviders,
} from '../../../shared/session/identity-providers';
import { forgetLastRoute, loginTarget, readLastRoute } from '../../../shared/session/redirects';
import { signIn } from '../../../shared/session/session-actions';
import { PasswordField } from '../../../shared/ui/password-field';
import { AccountCard } from '../../../shared/ui/account-card';
import { translateServerText } from '../../../shared/i18n/server-messages';
import { notifyFailure } from '../../../shared/ui/toasts';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { ProviderCallbackResult } from '../api/provider-callback';

export { providerCallbackLoader as loader } from '../api/provider-callback';

const LoginSchema = z.object({
  username: z.string().trim().min(1, ValidationMessages.required),
  password: z.string().min(1, ValidationMessages.required),
});

/**
 * /login?redirectUri: the social providers' buttons, the local form when local login is enabled, and
 * the sign-up link when user creation is on. Success goes to the redirect URI, else the last route,
 * else portal home.
 */
export function LoginPage() {
  const { t } = useTranslation();
  const config = useConfig();
  const [params] = useSearchParams();
  const callback = useLoaderData() as ProviderCallbackResult | undefined;
  const { providers, isPending } = useIdentityProviders();
  const localLogin = config.authentication.localLogin.enabled;
  const redirectUri = params.get('redirectUri');

  return (
    <AccountCard title={t('login.title')} subtitle={t('login.subtitle', { company: config.company.name })}>
      {callback?.error && (
        <Alert color="red" role="alert" title={t('login.provider.failed')}>
          {callback.error === 'state'
            ? t('login.provider.stateMismatch')
            : translateServerText(callback.text) || t('errors.unexpected')}
        </Alert>
      )}
      {providers.length > 0 && (
        <Stack gap="sm">
          {providers.map((provider) => (
            <Button
              key={provider.id}
              fullWidth
              color={provider.color ?? DEFAULT_PROVIDER_COLOR}
              onClick={() => {
                if (!startProviderLogin(provider, loginTarget(redirectUri, readLastRoute())))
                  notifyFailure('login.provider.unavailable');
              }}
            >
              {t('login.provider.signInWith', { name: provider.name })}
            </Button>
          ))}
        </Stack>
      )}
      {providers.length > 0 && localLogin && <Divider label={t('login.or')} labelPosition="center" />}
      {localLogin && <LocalLoginForm redirectUri={redirectUri} />}
      {!localLogin && !isPending && providers.length === 0 && (
        <Text c="dimmed" size="sm">
          {t('login.noMethod')}
        </Text>
      )}
      {config.portal.userCreation.enabled && (
        <Text size="sm" ta="center">
          {t('login.noAccount')}{' '}
          <Anchor component={Link} to="/registration" fw={600}>
            {t('login.signUp')}
          </Anchor>
        </Text>
      )}
    </AccountCard>
  );
}

function LocalLoginForm({ redirectUri }: { redirectUri: string | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({
    initialValues: { username: '', password: '' },
    validate: schemaResolver(LoginSchema, { sync: true }),
  });
  const login = useMutation({
    mutationFn: (values: z.infer<typeof LoginSchema>) => signIn(values.username.trim(), values.password),
    // The route guard sends a signed-in user on the login page to the same place (see RootLayout).
    onSuccess: async () => {
      await navigate(loginTarget(redirectUri, readLastRoute()), { replace: true });
      forgetLastRoute();
    },
    // The catalogue says why (wrong credentials, too many attempts); the password is typed again.
    onError: () => {
      form.setFieldValue('password', '');
      form.getInputNode('password')?.focus();
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => login.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label={t('login.username')}
          autoComplete="username"
          autoFocus
          withAsterisk
          {...translatedInput(form.getInputProps('username'), t)}
        />
        <PasswordField
          label={t('login.password')}
          autoComplete="current-password"
          withAsterisk
          {...translatedInput(form.getInputProps('password'), t)}
        />
        <Button type="submit" fullWidth loading={login.isPending}>
          {t('login.submit')}
        </Button>
      </Stack>
    </form>
  );
}
