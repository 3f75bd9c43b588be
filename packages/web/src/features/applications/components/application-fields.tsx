import { Checkbox, Group, Stack, TagsInput, Text, TextInput, Textarea } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { GRANT_TYPES } from '@portico/model';
import type { ApplicationFormValues } from '../rules';
import { GRANT_TYPE_RULES } from '../rules';

const translated = (t: (key: TranslationKey) => string, error: unknown) =>
  typeof error === 'string' ? t(error as TranslationKey) : undefined;

/** Name and description of an application. */
export function GeneralFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<ApplicationFormValues>;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const props = (field: 'name' | 'description') => {
    const input = form.getInputProps(field);
    return { ...input, error: translated(t, input.error) };
  };
  return (
    <>
      <TextInput
        label={t('applications.fields.name')}
        required
        readOnly={readOnly}
        data-autofocus
        {...props('name')}
      />
      <Textarea
        label={t('applications.fields.description')}
        required
        readOnly={readOnly}
        autosize
        minRows={2}
        {...props('description')}
      />
    </>
  );
}

/**
 * The settings of the application's type: a SIMPLE application's own type text and client id, or the
 * OAuth settings of a BROWSER, WEB or NATIVE one (grant types allowed by the type, the mandatory ones
 * always on; redirect URIs, required with a grant type that redirects).
 */
export function TypeSettingsFields({
  form,
  readOnly,
}: {
  form: UseFormReturnType<ApplicationFormValues>;
  readOnly?: boolean;
}) {
  const { t } = useTranslation();
  const values = form.getValues();
  if (values.type === 'SIMPLE') {
    const clientId = form.getInputProps('clientId');
    return (
      <>
        <TextInput
          label={t('applications.fields.appType')}
          description={t('applications.fields.appTypeHint')}
          readOnly={readOnly}
          {...form.getInputProps('appType')}
        />
        <TextInput
          label={t('applications.fields.clientId')}
          description={t('applications.fields.clientIdHint')}
          readOnly={readOnly}
          {...clientId}
          error={translated(t, clientId.error)}
        />
      </>
    );
  }
  const rules = GRANT_TYPE_RULES[values.type];
  const grantTypes = form.getInputProps('grantTypes');
  const redirectUris = form.getInputProps('redirectUris');
  return (
    <>
      <Checkbox.Group
        label={t('applications.fields.grantTypes')}
        description={t(`applications.grantTypeHints.${values.type}`)}
        required
        {...grantTypes}
        error={translated(t, grantTypes.error)}
        onChange={(next) => form.setFieldValue('grantTypes', [...new Set([...rules.mandatory, ...next])])}
      >
        <Group gap="lg" mt="xs">
          {GRANT_TYPES.filter((grant) => rules.allowed.includes(grant)).map((grant) => (
            <Checkbox
              key={grant}
              value={grant}
              label={t(`applications.grantTypes.${grant}`)}
              disabled={readOnly || rules.mandatory.includes(grant)}
            />
          ))}
        </Group>
      </Checkbox.Group>
      <TagsInput
        label={t('applications.fields.redirectUris')}
        description={t('applications.fields.redirectUrisHint')}
        readOnly={readOnly}
        placeholder="https://app.example.com/callback"
        {...redirectUris}
        error={translated(t, redirectUris.error)}
      />
    </>
  );
}

/** The application types offered when client registration is enabled, each with what it is for. */
export function TypeHint({ type }: { type: ApplicationFormValues['type'] }) {
  const { t } = useTranslation();
  return (
    <Stack gap={0}>
      <Text fw={600} size="sm">
        {t(`applications.types.${type}`)}
      </Text>
      <Text size="xs" c="dimmed">
        {t(`applications.typeHints.${type}`)}
      </Text>
    </Stack>
  );
}
