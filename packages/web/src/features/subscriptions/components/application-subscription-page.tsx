import { Anchor, Button, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { useApplicationPermissions } from '../../../shared/session/application-permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import {
  useApplicationSubscription,
  useCloseApplicationSubscription,
} from '../api/application-subscriptions';
import { ApiKeysTable } from './api-keys-table';
import { showsKeys } from './api-subscription-page';
import { SubscriptionDetails } from './subscription-details';

/**
 * A subscription of an application (`.../subscriptions/{subscriptionId}?<list filters>`): its fields, its
 * API keys (api-key plans, once accepted) and closing it with a confirmation.
 */
export function ApplicationSubscriptionPage() {
  const { t } = useTranslation();
  const { applicationId = '', subscriptionId = '' } = useParams();
  const location = useLocation();
  const permissions = useApplicationPermissions(applicationId);
  const subscription = useApplicationSubscription(applicationId, subscriptionId);
  const close = useCloseApplicationSubscription(applicationId);
  const [closing, setClosing] = useState(false);
  const back = `/management/applications/${encodeURIComponent(applicationId)}/subscriptions${location.search}`;
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
  const closable = s.status === 'PENDING' || s.status === 'ACCEPTED' || s.status === 'PAUSED';
  const apiName = s.api.name ?? s.api.id;

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={back} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} />
            {t('subscriptions.detail.back')}
          </Group>
        </Anchor>
        <Group justify="space-between" align="flex-end" mt={4}>
          <Title order={2} size="h3">
            {t('subscriptions.application.detailTitle', { api: apiName, plan: s.plan.name ?? s.plan.id })}
          </Title>
          {closable && permissions.has('application-subscription-d') && (
            <Button
              color="red"
              variant="light"
              leftSection={<IconX size={16} />}
              onClick={() => setClosing(true)}
            >
              {t('subscriptions.close.open')}
            </Button>
          )}
        </Group>
      </div>
      <SubscriptionDetails subscription={s} side="application" />
      {showsKeys(s) && (
        <ApiKeysTable
          owner={{ side: 'application', applicationId }}
          subscription={s}
          canRenew={permissions.has('application-subscription-u')}
          canRevoke={permissions.has('application-subscription-d')}
          canExpire={false}
        />
      )}
      <ConfirmDialog
        opened={closing}
        title={t('subscriptions.close.title')}
        confirmLabel={t('subscriptions.close.confirm')}
        color="red"
        loading={close.isPending}
        onClose={() => setClosing(false)}
        onConfirm={() =>
          close.mutate(s.id, {
            onSuccess: () => {
              notifySuccess('subscriptions.close.done');
              setClosing(false);
            },
          })
        }
      >
        <ConfirmText>{t('subscriptions.application.closeQuestion', { api: apiName })}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}
