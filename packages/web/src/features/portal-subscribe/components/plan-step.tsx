import { Badge, Group, Radio, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { WizardPlan } from '../api/subscribe-api';
import classes from './subscribe.module.css';

/**
 * Step 1: the API's published plans as cards to pick one from. A key-less plan needs no subscription:
 * it is shown, but cannot be picked.
 */
export function PlanStep({
  plans,
  planId,
  onPlan,
}: {
  plans: WizardPlan[];
  planId: string | null;
  onPlan: (plan: WizardPlan) => void;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      value={planId}
      onChange={(id) => {
        const plan = plans.find((p) => p.id === id);
        if (plan) onPlan(plan);
      }}
      label={t('portalSubscribe.plan.label')}
      description={t('portalSubscribe.plan.description')}
    >
      <div className={classes.plans} style={{ marginTop: 'var(--mantine-spacing-sm)' }}>
        {plans.map((plan) => {
          const keyless = plan.security === 'KEY_LESS';
          return (
            <Radio.Card
              key={plan.id}
              value={plan.id}
              withBorder
              radius="md"
              className={classes.planCard}
              disabled={keyless}
              aria-describedby={`plan-${plan.id}-about`}
            >
              <Group wrap="nowrap" align="flex-start" gap="sm">
                <Radio.Indicator disabled={keyless} />
                <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fw={700}>{plan.name}</Text>
                    <Badge variant="light">{t(`plans.security.${plan.security}`)}</Badge>
                  </Group>
                  <div id={`plan-${plan.id}-about`}>
                    {plan.description && (
                      <Text size="sm" c="dimmed">
                        {plan.description}
                      </Text>
                    )}
                    <Text size="xs" mt={4} c={keyless ? 'orange.9' : 'dimmed'}>
                      {keyless
                        ? t('portalSubscribe.plan.keyless')
                        : plan.validation === 'AUTO'
                          ? t('portalSubscribe.plan.auto')
                          : t('portalSubscribe.plan.manual')}
                    </Text>
                  </div>
                </Stack>
              </Group>
            </Radio.Card>
          );
        })}
      </div>
    </Radio.Group>
  );
}
