import { Badge, Group, Paper, Stack, Switch, Text } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { JsonSchemaForm, isValid } from '../../../../shared/ui/json-schema-form';
import type { PolicyDescription } from '../../api/types';
import type { RestrictionPolicy } from '../../rules';
import { RESTRICTION_POLICIES } from '../../rules';
import type { PlanFormValues } from './plan-form';
import { configurationDefaults } from './plan-form';

/** Translation group of each restriction. */
export const RESTRICTION_LABELS = {
  'rate-limit': 'rateLimit',
  quota: 'quota',
  'resource-filtering': 'pathAuthorization',
} as const satisfies Record<RestrictionPolicy, string>;

/**
 * Restrictions: rate limit, quota and path authorization, each switched on or off; an enabled one is
 * configured with the form of its policy's schema and must be valid.
 */
export function RestrictionsStep({
  form,
  policies,
  showErrors,
}: {
  form: UseFormReturnType<PlanFormValues>;
  policies: ReadonlyMap<string, PolicyDescription>;
  showErrors: boolean;
}) {
  const { t } = useTranslation();
  const values = form.getValues();
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('plans.restrictions.hint')}
      </Text>
      {RESTRICTION_POLICIES.map((policy) => {
        const restriction = values.restrictions[policy];
        const schema = policies.get(policy)?.schema;
        const label = RESTRICTION_LABELS[policy];
        const invalid = restriction.enabled && !!schema && !isValid(schema, restriction.configuration);
        return (
          <Paper key={policy} withBorder radius="md" p="md">
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Switch
                  label={<Text fw={600}>{t(`plans.restrictions.${label}.title`)}</Text>}
                  description={t(`plans.restrictions.${label}.hint`)}
                  checked={restriction.enabled}
                  onChange={(event) => {
                    const enabled = event.currentTarget.checked;
                    form.setFieldValue(`restrictions.${policy}`, {
                      ...restriction,
                      enabled,
                      configuration:
                        enabled && Object.keys(restriction.configuration).length === 0
                          ? configurationDefaults(schema)
                          : restriction.configuration,
                    });
                  }}
                />
                {invalid && (
                  <Badge color="red" variant="light" tt="none">
                    {t('plans.wizard.incomplete')}
                  </Badge>
                )}
              </Group>
              {restriction.enabled && schema && (
                <JsonSchemaForm
                  schema={schema}
                  value={restriction.configuration}
                  onChange={(configuration) =>
                    form.setFieldValue(`restrictions.${policy}.configuration`, configuration)
                  }
                  showErrors={showErrors}
                  idPrefix={policy}
                />
              )}
            </Stack>
          </Paper>
        );
      })}
    </Stack>
  );
}
