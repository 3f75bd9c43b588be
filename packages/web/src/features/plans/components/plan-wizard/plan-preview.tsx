import { Badge, Divider, Group, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { PlanStatus, PolicyDescription } from '../../api/types';
import { RESTRICTION_POLICIES } from '../../rules';
import { PlanCard } from '../plan-card';
import type { PlanFormValues } from './plan-form';
import { RESTRICTION_LABELS } from './restrictions-step';
import classes from './plan-wizard.module.css';

/** The time units of rate limits and quotas, each a plural key of `common.period`. */
type PeriodUnit = 'SECONDS' | 'MINUTES' | 'HOURS' | 'DAYS' | 'WEEKS' | 'MONTHS';

interface Limit {
  limit?: number;
  periodTime?: number;
  periodTimeUnit?: string;
}

/** The plan as it will look, updated as the wizard's fields change. */
export function PlanPreview({
  values,
  status,
  policies,
}: {
  values: PlanFormValues;
  status: PlanStatus;
  policies: ReadonlyMap<string, PolicyDescription>;
}) {
  const { t } = useTranslation();
  const summary = (policy: (typeof RESTRICTION_POLICIES)[number]): string => {
    const configuration = values.restrictions[policy].configuration;
    if (policy === 'resource-filtering') {
      const count = (key: string) =>
        Array.isArray(configuration[key]) ? (configuration[key] as unknown[]).length : 0;
      return t('plans.preview.pathRules', { allowed: count('whitelist'), denied: count('blacklist') });
    }
    const limit = (configuration[policy === 'rate-limit' ? 'rate' : 'quota'] ?? {}) as Limit;
    if (limit.limit === undefined) return t('plans.preview.notSet');
    return t('plans.preview.limit', {
      count: limit.limit,
      period: limit.periodTimeUnit
        ? t(`common.period.${limit.periodTimeUnit as PeriodUnit}`, { count: limit.periodTime ?? 1 })
        : '',
    });
  };
  const restrictions = RESTRICTION_POLICIES.filter((p) => values.restrictions[p].enabled);

  return (
    <aside aria-label={t('plans.preview.title')} className={classes.preview}>
      <Stack gap="sm">
        <Title order={3} size="h6" tt="uppercase" c="dimmed">
          {t('plans.preview.title')}
        </Title>
        <PlanCard
          headingLevel={4}
          plan={{
            name: values.name,
            description: values.description,
            security: values.security,
            status,
            validation: values.security === 'KEY_LESS' ? 'AUTO' : values.validation,
            characteristics: values.characteristics,
          }}
        >
          <Divider my={4} />
          <Stack gap={4}>
            <Text size="xs" fw={700} c="dimmed" tt="uppercase">
              {t('plans.preview.restrictions')}
            </Text>
            {restrictions.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('plans.preview.noRestriction')}
              </Text>
            ) : (
              <List size="sm" spacing={2}>
                {restrictions.map((policy) => (
                  <List.Item key={policy}>
                    {t('plans.preview.restrictionLine', {
                      name: t(`plans.restrictions.${RESTRICTION_LABELS[policy]}.title`),
                      summary: summary(policy),
                    })}
                  </List.Item>
                ))}
              </List>
            )}
            <Text size="xs" fw={700} c="dimmed" tt="uppercase" mt={6}>
              {t('plans.preview.policies')}
            </Text>
            {values.policies.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('plans.preview.noPolicy')}
              </Text>
            ) : (
              <List size="sm" spacing={2} type="ordered">
                {values.policies.map((p) => (
                  <List.Item key={p.key}>
                    <Group gap={6} wrap="nowrap">
                      <Text size="sm" td={p.enabled ? undefined : 'line-through'}>
                        {policies.get(p.policy)?.name ?? p.policy}
                      </Text>
                      {!p.enabled && (
                        <Badge size="xs" variant="light" color="gray" tt="none">
                          {t('plans.preview.disabled')}
                        </Badge>
                      )}
                    </Group>
                  </List.Item>
                ))}
              </List>
            )}
            {values.comment_required && (
              <Text size="xs" c="dimmed" mt={6}>
                {t('plans.preview.commentRequired')}
              </Text>
            )}
          </Stack>
        </PlanCard>
      </Stack>
    </aside>
  );
}
