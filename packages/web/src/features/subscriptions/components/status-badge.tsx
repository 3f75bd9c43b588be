import { Badge, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SubscriptionStatus } from '../api/types';

const COLORS: Record<SubscriptionStatus, string> = {
  PENDING: 'yellow',
  ACCEPTED: 'teal',
  PAUSED: 'orange',
  REJECTED: 'red',
  CLOSED: 'gray',
};

/** The status of a subscription; the reason given to the subscriber, when there is one, as a tooltip. */
export function SubscriptionStatusBadge({
  status,
  reason,
}: {
  status: SubscriptionStatus;
  reason?: string | null;
}) {
  const { t } = useTranslation();
  const badge = (
    <Badge color={COLORS[status]} variant="light" tt="none" tabIndex={reason ? 0 : undefined}>
      {t(`subscriptions.status.${status}`)}
    </Badge>
  );
  return reason ? (
    <Tooltip label={reason} multiline maw={320} withArrow>
      {badge}
    </Tooltip>
  ) : (
    badge
  );
}
