import { Alert, Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconMailCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { z } from 'zod';
import { emailSchema, nameSchema } from '../../../shared/lib/account-validation';
import { isHttpError } from '../../../shared/http';
import { AccountCard } from '../../../shared/ui/account-card';
import { translateServerText } from '../../../shared/i18n/server-messages';
import { translatedInput } from '../../../shared/ui/translated-input';
import { useRegister } from '../api/registration';

const RegistrationSchema = z.object({ firstname: nameSchema, lastname: nameSchema, email: emailSchema });

/** /registration: first name, last name and email; the server mails the link to finish the account. */
export function RegistrationPage() {
  const { t } = useTranslation();
  const register = useRegister();
  const form = useForm({
    initialValues: { firstname: '', lastname: '', email: '' },
    validate: schemaResolver(RegistrationSchema, { sync: true }),
    validateInputOnBlur: true,
  });

  if (register.isSuccess) {
    return (
      <AccountCard title={t('registration.doneTitle')}>
        <Alert color="teal" icon={<IconMailCheck size={20} />} role="status">
          {t('registration.done', { email: register.variables.email })}
        </Alert>
        <Button component={Link} to="/login" variant="light">
          {t('registration.backToLogin')}
        </Button>
      </AccountCard>
    );
  }

  return (
    <AccountCard title={t('registration.title')} subtitle={t('registration.subtitle')}>
      {register.isError && (
        <Alert color="red" role="alert">
          {(isHttpError(register.error) && translateServerText(register.error.text)) ||
            t('errors.unexpected')}
        </Alert>
      )}
      <form
        noValidate
        onSubmit={form.onSubmit((values) => register.mutate(RegistrationSchema.parse(values)))}
      >
        <Stack gap="md">
          <Group grow align="flex-start">
            <TextInput
              label={t('account.firstname')}
              autoComplete="given-name"
              withAsterisk
              autoFocus
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
            type="email"
            autoComplete="email"
            withAsterisk
            {...translatedInput(form.getInputProps('email'), t)}
          />
          <Button type="submit" fullWidth loading={register.isPending} disabled={!form.isValid()}>
            {t('registration.submit')}
          </Button>
        </Stack>
      </form>
      <Text size="sm" ta="center">
        {t('registration.haveAccount')}{' '}
        <Anchor component={Link} to="/login" fw={600}>
          {t('registration.signIn')}
        </Anchor>
      </Text>
    </AccountCard>
  );
}
