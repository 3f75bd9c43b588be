import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { DateText } from '../../../shared/ui/date-text';
import type { Subscription } from '../api/types';
import { SubscriptionStatusBadge } from './status-badge';

function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" fw={700} c="dimmed" tt="uppercase">
        {label}
      </Text>
      <div>{children}</div>
    </div>
  );
}

const Message = ({ text }: { text: string | null }) =>
  text ? (
    <Text size="sm" style={{ whiteSpace: 'pre-line' }}>
      {text}
    </Text>
  ) : (
    <Text size="sm" c="dimmed">
      —
    </Text>
  );

/**
 * Everything a subscription's detail shows: id, plan with its security, the application and its owner
 * (API side) or the API (application side), status, dates, the messages and who subscribed. A rejected
 * subscription shows no start, end nor pause date.
 */
export function SubscriptionDetails({
  subscription: s,
  side,
}: {
  subscription: Subscription;
  side: 'api' | 'application';
}) {
  const { t } = useTranslation();
  const rejected = s.status === 'REJECTED';
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg" verticalSpacing="md">
          <Field label={t('subscriptions.fields.id')}>
            <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
              {s.id}
            </Text>
          </Field>
          <Field label={t('subscriptions.fields.status')}>
            <SubscriptionStatusBadge status={s.status} reason={s.reason} />
          </Field>
          <Field label={t('subscriptions.fields.plan')}>
            <Group gap={6}>
              <Text size="sm" fw={500}>
                {s.plan.name ?? s.plan.id}
              </Text>
              {s.plan.security && (
                <Badge size="sm" variant="light" color="indigo" tt="none">
                  {t(`subscriptions.security.${s.plan.security}`)}
                </Badge>
              )}
            </Group>
          </Field>
          {side === 'api' ? (
            <Field label={t('subscriptions.fields.application')}>
              <Text size="sm" fw={500}>
                {s.application.name ?? s.application.id}
              </Text>
              {s.application.owner && (
                <Text size="xs" c="dimmed">
                  {t('subscriptions.fields.ownedBy', { name: s.application.owner.displayName })}
                </Text>
              )}
            </Field>
          ) : (
            <Field label={t('subscriptions.fields.api')}>
              <Anchor
                component={Link}
                to={`/management/apis/${encodeURIComponent(s.api.id)}/portal`}
                size="sm"
                fw={500}
              >
                {s.api.name ?? s.api.id}
                {s.api.version ? ` (${s.api.version})` : ''}
              </Anchor>
            </Field>
          )}
          <Field label={t('subscriptions.fields.subscribedBy')}>
            <Text size="sm">{s.subscribed_by?.displayName ?? '—'}</Text>
          </Field>
          <Field label={t('subscriptions.fields.createdAt')}>
            <DateText value={s.created_at} />
          </Field>
          <Field label={t('subscriptions.fields.processedAt')}>
            <DateText value={s.processed_at} />
          </Field>
          {!rejected && (
            <>
              <Field label={t('subscriptions.fields.startingAt')}>
                <DateText value={s.starting_at} />
              </Field>
              <Field label={t('subscriptions.fields.endingAt')}>
                <DateText value={s.ending_at} />
              </Field>
              {s.paused_at !== null && (
                <Field label={t('subscriptions.fields.pausedAt')}>
                  <DateText value={s.paused_at} />
                </Field>
              )}
            </>
          )}
          {s.closed_at !== null && (
            <Field label={t('subscriptions.fields.closedAt')}>
              <DateText value={s.closed_at} />
            </Field>
          )}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          <Field label={t('subscriptions.fields.request')}>
            <Message text={s.request} />
          </Field>
          <Field label={t('subscriptions.fields.reason')}>
            <Message text={s.reason} />
          </Field>
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
