import { Alert, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { IconInfoCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { JsonSchemaForm } from '../../../../shared/ui/json-schema-form';
import type { PlanSecurity } from '../../api/types';
import type { PlanFormValues } from './plan-form';
import { configurationDefaults } from './plan-form';
import { SECURITY_TYPES, securitySchema } from './security-schemas';
import classes from './plan-wizard.module.css';

/**
 * Secure: the authentication type (fixed once the plan exists) and its configuration, a form generated
 * from the type's JSON schema. A key-less plan is validated automatically.
 */
export function SecureStep({
  form,
  mode,
  showErrors,
  errorOf,
}: {
  form: UseFormReturnType<PlanFormValues>;
  mode: 'create' | 'edit';
  showErrors: boolean;
  errorOf: (field: string) => string | undefined;
}) {
  const { t } = useTranslation();
  const values = form.getValues();
  const schema = securitySchema(values.security);
  const choose = (security: PlanSecurity) => {
    form.setFieldValue('security', security);
    form.setFieldValue('securityConfig', configurationDefaults(securitySchema(security)));
    if (security === 'KEY_LESS') form.setFieldValue('validation', 'AUTO');
  };

  return (
    <Stack gap="lg">
      <Radio.Group
        label={t('plans.fields.security')}
        description={mode === 'edit' ? t('plans.fields.securityFixed') : t('plans.fields.securityHint')}
        required
        value={values.security}
        onChange={(value) => choose(value as PlanSecurity)}
        error={errorOf('security')}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" mt="xs">
          {SECURITY_TYPES.map((security) => (
            <Radio.Card
              key={security}
              value={security}
              disabled={mode === 'edit' && security !== values.security}
              className={classes.choice}
              p="sm"
              radius="md"
            >
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator />
                <div>
                  <Text fw={600} size="sm">
                    {t(`plans.security.${security}`)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t(`plans.securityHints.${security}`)}
                  </Text>
                </div>
              </Group>
            </Radio.Card>
          ))}
        </SimpleGrid>
      </Radio.Group>
      {values.security === 'KEY_LESS' && (
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />}>
          {t('plans.fields.keylessNote')}
        </Alert>
      )}
      {schema && values.security && (
        <Stack gap="sm">
          <Title order={3} size="h5">
            {t('plans.wizard.securityConfiguration', { security: t(`plans.security.${values.security}`) })}
          </Title>
          <JsonSchemaForm
            key={values.security}
            schema={schema}
            value={values.securityConfig}
            onChange={(next) => form.setFieldValue('securityConfig', next)}
            showErrors={showErrors}
            idPrefix="security"
          />
        </Stack>
      )}
    </Stack>
  );
}
