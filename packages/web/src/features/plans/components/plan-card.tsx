import { Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { PLAN_CHARACTERISTICS_SHOWN } from '../rules';
import type { PlanSecurity, PlanStatus, PlanValidation } from '../api/types';
import classes from './plan-card.module.css';

const STATUS_COLORS: Record<PlanStatus, string> = {
  STAGING: 'gray',
  PUBLISHED: 'teal',
  DEPRECATED: 'orange',
  CLOSED: 'red',
};

/** What a card shows of a plan (a saved plan, or the wizard's plan while it is made). */
export interface PlanCardData {
  name: string;
  description: string;
  security: PlanSecurity | null;
  status: PlanStatus;
  validation: PlanValidation;
  characteristics: string[];
}

/**
 * A plan as a card: name (italic while staging, struck through once closed), security, status,
 * description and at most 6 characteristics. `handle` and `actions` come from the list.
 */
export function PlanCard({
  plan,
  handle,
  actions,
  children,
  headingLevel = 3,
}: {
  plan: PlanCardData;
  handle?: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
  headingLevel?: 2 | 3 | 4;
}) {
  const { t } = useTranslation();
  const shown = plan.characteristics.slice(0, PLAN_CHARACTERISTICS_SHOWN);
  const hidden = plan.characteristics.length - shown.length;
  return (
    <Paper withBorder radius="md" p="md" className={classes.card} data-status={plan.status}>
      <Group align="flex-start" wrap="nowrap" gap="sm">
        {handle}
        <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
          <Group gap="xs" justify="space-between" wrap="nowrap" align="flex-start">
            <Title
              order={headingLevel}
              size="h4"
              className={classes.name}
              data-staging={plan.status === 'STAGING' || undefined}
              data-closed={plan.status === 'CLOSED' || undefined}
            >
              {plan.name || t('plans.card.unnamed')}
            </Title>
            <Group gap={6} wrap="nowrap">
              {plan.security && (
                <Badge variant="light" color="indigo" tt="none">
                  {t(`plans.security.${plan.security}`)}
                </Badge>
              )}
              <Badge variant="dot" color={STATUS_COLORS[plan.status]} tt="none">
                {t(`plans.status.${plan.status}`)}
              </Badge>
            </Group>
          </Group>
          {plan.description && (
            <Text size="sm" c="dimmed" className={classes.description}>
              {plan.description}
            </Text>
          )}
          {shown.length > 0 && (
            <List
              size="sm"
              spacing={2}
              icon={<IconCheck size={14} color="var(--mantine-color-teal-6)" />}
              className={classes.characteristics}
              aria-label={t('plans.card.characteristics')}
            >
              {shown.map((characteristic, index) => (
                <List.Item key={`${index}-${characteristic}`}>{characteristic}</List.Item>
              ))}
              {hidden > 0 && (
                <List.Item icon={<span />}>
                  <Text size="xs" c="dimmed">
                    {t('plans.card.moreCharacteristics', { number: hidden })}
                  </Text>
                </List.Item>
              )}
            </List>
          )}
          <Text size="xs" c="dimmed">
            {plan.validation === 'AUTO' ? t('plans.card.autoValidation') : t('plans.card.manualValidation')}
          </Text>
          {children}
          {actions && (
            <Group gap="xs" justify="flex-end" mt={4}>
              {actions}
            </Group>
          )}
        </Stack>
      </Group>
    </Paper>
  );
}
