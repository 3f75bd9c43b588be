import { Anchor, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import {
  IconArrowLeft,
  IconArrowsExchange,
  IconCalendarEvent,
  IconCheck,
  IconPlayerPause,
  IconPlayerPlay,
  IconX,
} from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { useApiPermissions } from '../../../shared/session/api-permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { useApiSubscription, useChangeSubscriptionStatus } from '../api/api-subscriptions';
import type { Subscription } from '../api/types';
import { ApiKeysTable } from './api-keys-table';
import { AcceptDialog, EndDateDialog, RejectDialog, TransferDialog } from './subscription-dialogs';
import { SubscriptionDetails } from './subscription-details';

type Asked = 'accept' | 'reject' | 'pause' | 'resume' | 'close' | 'transfer' | 'endDate' | null;

const STATUS_DONE: Record<'pause' | 'resume' | 'close', TranslationKey> = {
  pause: 'subscriptions.pause.done',
  resume: 'subscriptions.resume.done',
  close: 'subscriptions.close.done',
};

/** Whether a subscription of this plan and status has API keys to show. */
export const showsKeys = (s: Subscription) =>
  s.plan.security === 'API_KEY' && s.status !== 'PENDING' && s.status !== 'REJECTED';

/**
 * subscriptions.subscription (`/management/apis/{apiId}/subscriptions/{subscriptionId}?<list filters>`):
 * the subscription with every field, the actions its status allows (accept, reject, pause, resume,
 * transfer, change the end date, close) and its API keys.
 */
export function ApiSubscriptionPage() {
  const { t } = useTranslation();
  const { apiId = '', subscriptionId = '' } = useParams();
  const location = useLocation();
  const permissions = useApiPermissions(apiId);
  const subscription = useApiSubscription(apiId, subscriptionId);
  const status = useChangeSubscriptionStatus(apiId);
  const [asked, setAsked] = useState<Asked>(null);
  const back = `/management/apis/${encodeURIComponent(apiId)}/subscriptions${location.search}`;
  const s = subscription.data;
  if (!s) {
    return (
      <Center py="xl">
        {subscription.isError ? (
          <Text c="dimmed">{t('subscriptions.detail.notFound')}</Text>
        ) : (
          <Loader aria-label={t('common.loading')} />
        )}
      </Center>
    );
  }
  const canUpdate = permissions.has('api-subscription-u');
  const live = s.status === 'ACCEPTED' || s.status === 'PAUSED';
  const target = {
    id: s.id,
    apiId,
    application: s.application.name ?? s.application.id,
    plan: s.plan.name ?? s.plan.id,
  };
  const changeStatus = (action: 'pause' | 'resume' | 'close') =>
    status.mutate(
      { id: s.id, status: action === 'pause' ? 'PAUSED' : action === 'resume' ? 'RESUMED' : 'CLOSED' },
      {
        onSuccess: () => {
          notifySuccess(STATUS_DONE[action]);
          setAsked(null);
        },
      },
    );

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={back} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} />
            {t('subscriptions.detail.back')}
          </Group>
        </Anchor>
        <Title order={2} size="h3" mt={4}>
          {t('subscriptions.detail.title', { application: target.application, plan: target.plan })}
        </Title>
      </div>
      {canUpdate && (s.status === 'PENDING' || live) && (
        <Group gap="sm" role="group" aria-label={t('subscriptions.detail.actions')}>
          {s.status === 'PENDING' && (
            <>
              <Button color="teal" leftSection={<IconCheck size={16} />} onClick={() => setAsked('accept')}>
                {t('subscriptions.accept.open')}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconX size={16} />}
                onClick={() => setAsked('reject')}
              >
                {t('subscriptions.reject.open')}
              </Button>
            </>
          )}
          {s.status === 'ACCEPTED' && (
            <Button
              variant="default"
              leftSection={<IconPlayerPause size={16} />}
              onClick={() => setAsked('pause')}
            >
              {t('subscriptions.pause.open')}
            </Button>
          )}
          {s.status === 'PAUSED' && (
            <Button
              variant="default"
              leftSection={<IconPlayerPlay size={16} />}
              onClick={() => setAsked('resume')}
            >
              {t('subscriptions.resume.open')}
            </Button>
          )}
          {live && (
            <>
              <Button
                variant="default"
                leftSection={<IconArrowsExchange size={16} />}
                onClick={() => setAsked('transfer')}
              >
                {t('subscriptions.transfer.open')}
              </Button>
              <Button
                variant="default"
                leftSection={<IconCalendarEvent size={16} />}
                onClick={() => setAsked('endDate')}
              >
                {t('subscriptions.endDate.open')}
              </Button>
              <Button
                color="red"
                variant="light"
                leftSection={<IconX size={16} />}
                onClick={() => setAsked('close')}
              >
                {t('subscriptions.close.open')}
              </Button>
            </>
          )}
        </Group>
      )}
      <SubscriptionDetails subscription={s} side="api" />
      {showsKeys(s) && (
        <ApiKeysTable
          owner={{ side: 'api', apiId }}
          subscription={s}
          canRenew={canUpdate}
          canRevoke={canUpdate}
          canExpire={canUpdate && live}
        />
      )}
      <AcceptDialog target={asked === 'accept' ? target : null} onClose={() => setAsked(null)} />
      <RejectDialog target={asked === 'reject' ? target : null} onClose={() => setAsked(null)} />
      <TransferDialog subscription={s} opened={asked === 'transfer'} onClose={() => setAsked(null)} />
      {asked === 'endDate' && <EndDateDialog subscription={s} opened onClose={() => setAsked(null)} />}
      <ConfirmDialog
        opened={asked === 'pause' || asked === 'resume' || asked === 'close'}
        title={
          asked === 'pause' || asked === 'resume' || asked === 'close'
            ? t(`subscriptions.${asked}.title`)
            : ''
        }
        confirmLabel={
          asked === 'pause' || asked === 'resume' || asked === 'close'
            ? t(`subscriptions.${asked}.confirm`)
            : ''
        }
        color={asked === 'close' ? 'red' : asked === 'pause' ? 'orange' : 'teal'}
        loading={status.isPending}
        onClose={() => setAsked(null)}
        onConfirm={() =>
          (asked === 'pause' || asked === 'resume' || asked === 'close') && changeStatus(asked)
        }
      >
        {(asked === 'pause' || asked === 'resume' || asked === 'close') && (
          <ConfirmText>
            {t(`subscriptions.${asked}.question`, { application: target.application })}
          </ConfirmText>
        )}
      </ConfirmDialog>
    </Stack>
  );
}
