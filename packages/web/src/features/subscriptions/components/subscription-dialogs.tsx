import { Alert, Button, Group, Modal, Radio, Stack, Text, Textarea } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { SUBSCRIPTION_REASON_MAX } from '@portico/model';
import { DateTimeField } from '../../../shared/ui/date-time-field';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  useApiPlans,
  useChangeSubscriptionDates,
  useProcessSubscription,
  useTransferSubscription,
} from '../api/api-subscriptions';
import type { Subscription } from '../api/types';
import { DialogForm } from '../../../shared/ui/dialog-form';

/** The subscription a dialog acts on: its id and API, and what the dialog needs to say about it. */
export interface DialogTarget {
  id: string;
  apiId: string;
  application: string;
  plan: string;
}

function DialogFrame({
  opened,
  title,
  onClose,
  onSubmit,
  valid,
  loading,
  confirmLabel,
  color,
  children,
}: {
  opened: boolean;
  title: string;
  onClose: () => void;
  onSubmit: () => void;
  valid: boolean;
  loading: boolean;
  confirmLabel: string;
  color?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <DialogForm
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (valid) onSubmit();
        }}
      >
        <Stack gap="md">
          {children}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!valid} loading={loading} color={color}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

/**
 * Accepts a pending subscription, from a start date (not before today; now when empty) to an optional
 * end date (not before the start), with a message to the subscriber.
 */
export function AcceptDialog({
  target,
  onClose,
  onDone,
}: {
  target: DialogTarget | null;
  onClose: () => void;
  onDone?: (subscription: Subscription) => void;
}) {
  const { t } = useTranslation();
  const process = useProcessSubscription(target?.apiId ?? '');
  const [start, setStart] = useState<number | null>(null);
  const [end, setEnd] = useState<number | null>(null);
  const [message, setMessage] = useState('');
  // The moment the dialog was first shown: dates are checked against it (the server checks them again).
  const [now] = useState(Date.now);
  const today = dayjs(now).startOf('day').valueOf();
  const startError = start !== null && start < today ? t('subscriptions.accept.startBeforeToday') : undefined;
  const endError =
    end !== null && end < (start ?? now) ? t('subscriptions.accept.endBeforeStart') : undefined;
  const close = () => {
    setStart(null);
    setEnd(null);
    setMessage('');
    onClose();
  };
  return (
    <DialogFrame
      opened={target !== null}
      title={t('subscriptions.accept.title')}
      confirmLabel={t('subscriptions.accept.confirm')}
      color="teal"
      onClose={close}
      valid={!startError && !endError && message.length <= SUBSCRIPTION_REASON_MAX}
      loading={process.isPending}
      onSubmit={() =>
        target &&
        process.mutate(
          {
            id: target.id,
            accepted: true,
            starting_at: start,
            ending_at: end,
            reason: message.trim() || undefined,
          },
          {
            onSuccess: (subscription) => {
              notifySuccess('subscriptions.accept.done');
              close();
              onDone?.(subscription);
            },
          },
        )
      }
    >
      {target && (
        <Text size="sm">
          {t('subscriptions.accept.question', { application: target.application, plan: target.plan })}
        </Text>
      )}
      <DateTimeField
        label={t('subscriptions.accept.start')}
        description={t('subscriptions.accept.startHint')}
        placeholder={t('subscriptions.accept.now')}
        value={start}
        onChange={setStart}
        min={today}
        error={startError}
      />
      <DateTimeField
        label={t('subscriptions.accept.end')}
        description={t('subscriptions.accept.endHint')}
        placeholder={t('subscriptions.accept.noEnd')}
        value={end}
        onChange={setEnd}
        min={start ?? today}
        error={endError}
      />
      <Textarea
        label={t('subscriptions.accept.message')}
        description={t('subscriptions.accept.messageHint')}
        value={message}
        maxLength={SUBSCRIPTION_REASON_MAX}
        onChange={(event) => setMessage(event.currentTarget.value)}
        autosize
        minRows={2}
      />
    </DialogFrame>
  );
}

/** Rejects a pending subscription with a reason given to the subscriber. */
export function RejectDialog({
  target,
  onClose,
  onDone,
}: {
  target: DialogTarget | null;
  onClose: () => void;
  onDone?: (subscription: Subscription) => void;
}) {
  const { t } = useTranslation();
  const process = useProcessSubscription(target?.apiId ?? '');
  const [reason, setReason] = useState('');
  const close = () => {
    setReason('');
    onClose();
  };
  return (
    <DialogFrame
      opened={target !== null}
      title={t('subscriptions.reject.title')}
      confirmLabel={t('subscriptions.reject.confirm')}
      color="red"
      onClose={close}
      valid={reason.trim().length > 0}
      loading={process.isPending}
      onSubmit={() =>
        target &&
        process.mutate(
          { id: target.id, accepted: false, reason: reason.trim() },
          {
            onSuccess: (subscription) => {
              notifySuccess('subscriptions.reject.done');
              close();
              onDone?.(subscription);
            },
          },
        )
      }
    >
      {target && (
        <Text size="sm">
          {t('subscriptions.reject.question', { application: target.application, plan: target.plan })}
        </Text>
      )}
      <Textarea
        label={t('subscriptions.reject.reason')}
        description={t('subscriptions.reject.reasonHint')}
        required
        data-autofocus
        value={reason}
        maxLength={SUBSCRIPTION_REASON_MAX}
        onChange={(event) => setReason(event.currentTarget.value)}
        autosize
        minRows={3}
      />
    </DialogFrame>
  );
}

/** Moves an accepted or paused subscription to another published plan of the same security type. */
export function TransferDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const apiId = subscription.api.id;
  const plans = useApiPlans(apiId);
  const transfer = useTransferSubscription(apiId);
  const [plan, setPlan] = useState<string | null>(null);
  const offered = (plans.data ?? [])
    .filter(
      (p) =>
        p.status === 'PUBLISHED' &&
        p.security === subscription.plan.security &&
        p.id !== subscription.plan.id,
    )
    .sort((a, b) => a.order - b.order);
  const close = () => {
    setPlan(null);
    onClose();
  };
  return (
    <DialogFrame
      opened={opened}
      title={t('subscriptions.transfer.title')}
      confirmLabel={t('subscriptions.transfer.confirm')}
      onClose={close}
      valid={!!plan}
      loading={transfer.isPending}
      onSubmit={() =>
        plan &&
        transfer.mutate(
          { id: subscription.id, plan },
          {
            onSuccess: () => {
              notifySuccess('subscriptions.transfer.done');
              close();
            },
          },
        )
      }
    >
      <Text size="sm">{t('subscriptions.transfer.hint')}</Text>
      {offered.length === 0 ? (
        <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
          {t('subscriptions.transfer.noPlan')}
        </Alert>
      ) : (
        <Radio.Group label={t('subscriptions.transfer.plan')} value={plan} onChange={setPlan} required>
          <Stack gap="xs" mt="xs">
            {offered.map((p) => (
              <Radio key={p.id} value={p.id} label={p.name} />
            ))}
          </Stack>
        </Radio.Group>
      )}
    </DialogFrame>
  );
}

/** Changes the end date of an accepted or paused subscription (not earlier than now; empty: no end). */
export function EndDateDialog({
  subscription,
  opened,
  onClose,
}: {
  subscription: Subscription;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const change = useChangeSubscriptionDates(subscription.api.id);
  const [end, setEnd] = useState<number | null>(subscription.ending_at);
  const [now] = useState(Date.now);
  const error = end !== null && end < now ? t('subscriptions.endDate.beforeNow') : undefined;
  return (
    <DialogFrame
      opened={opened}
      title={t('subscriptions.endDate.title')}
      confirmLabel={t('subscriptions.endDate.confirm')}
      onClose={onClose}
      valid={!error && end !== subscription.ending_at}
      loading={change.isPending}
      onSubmit={() =>
        change.mutate(
          { id: subscription.id, starting_at: subscription.starting_at, ending_at: end },
          {
            onSuccess: () => {
              notifySuccess('subscriptions.endDate.done');
              onClose();
            },
          },
        )
      }
    >
      <DateTimeField
        label={t('subscriptions.endDate.end')}
        description={t('subscriptions.endDate.hint')}
        placeholder={t('subscriptions.accept.noEnd')}
        value={end}
        onChange={setEnd}
        min={dayjs(now).startOf('day').valueOf()}
        error={error}
        required={false}
      />
    </DialogFrame>
  );
}
