import { Badge, Button, Card, Group, List, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { PortalPlan } from '../api/portal-api';

/** Plan cards show at most this many characteristics (portal-and-platform.md 9). */
export const MAX_CHARACTERISTICS = 6;

/**
 * A published plan: name, security, description and its first six characteristics; the subscribe link
 * only when given (signed-in users, once the subscription screen exists).
 */
export function PlanCard({ plan, subscribeTo }: { plan: PortalPlan; subscribeTo?: string }) {
  const { t } = useTranslation();
  const characteristics = plan.characteristics.slice(0, MAX_CHARACTERISTICS);
  return (
    <Card withBorder radius="md" padding="lg" component="article" aria-labelledby={`plan-${plan.id}`}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h4" id={`plan-${plan.id}`}>
            {plan.name}
          </Title>
          <Badge variant="light">{t(`plans.security.${plan.security}`)}</Badge>
        </Group>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        {characteristics.length > 0 && (
          <List
            size="sm"
            spacing={4}
            icon={<IconCheck size={16} color="var(--mantine-color-green-8)" aria-hidden />}
            aria-label={t('portalApi.plans.characteristics')}
          >
            {characteristics.map((characteristic, index) => (
              <List.Item key={`${index}-${characteristic}`}>{characteristic}</List.Item>
            ))}
          </List>
        )}
        {/* A key-less plan needs no subscription (portal-and-platform.md 5). */}
        {subscribeTo && plan.security !== 'KEY_LESS' && (
          <Button component={Link} to={subscribeTo} mt="auto" variant="light">
            {t('portalApi.plans.subscribe', { plan: plan.name })}
          </Button>
        )}
      </Stack>
    </Card>
  );
}
