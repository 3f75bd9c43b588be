import {
  ActionIcon,
  Badge,
  Button,
  Center,
  CopyButton,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconCalendarTime, IconCheck, IconCopy, IconKey, IconRefresh, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { API_KEY_MAX_EXPIRY } from '@portico/model';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { DateText } from '../../../shared/ui/date-text';
import { DateTimeField } from '../../../shared/ui/date-time-field';
import { notifySuccess } from '../../../shared/ui/notify';
import type { KeyOwner } from '../api/api-keys';
import { useApiKeys, useExpireApiKey, useRenewApiKey, useRevokeApiKey } from '../api/api-keys';
import type { ApiKey, Subscription } from '../api/types';

function keyState(key: ApiKey): { label: 'active' | 'revoked' | 'expired' | 'paused'; color: string } {
  if (key.revoked) return { label: 'revoked', color: 'red' };
  if (key.expired) return { label: 'expired', color: 'gray' };
  if (key.paused) return { label: 'paused', color: 'orange' };
  return { label: 'active', color: 'teal' };
}

/**
 * The API keys of an api-key subscription, newest first: copy, renew (the previous key keeps working 2
 * hours), revoke, and, on the API side, the date a key stops working. Renewing and revoking need an
 * accepted subscription.
 */
export function ApiKeysTable({
  owner,
  subscription,
  canRenew,
  canRevoke,
  canExpire,
}: {
  owner: KeyOwner;
  subscription: Subscription;
  canRenew: boolean;
  canRevoke: boolean;
  canExpire: boolean;
}) {
  const { t } = useTranslation();
  const keys = useApiKeys(owner, subscription.id);
  const renew = useRenewApiKey(owner, subscription.id);
  const revoke = useRevokeApiKey(owner, subscription.id);
  const [renewing, setRenewing] = useState(false);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [expiring, setExpiring] = useState<ApiKey | null>(null);
  const accepted = subscription.status === 'ACCEPTED';
  const live = (key: ApiKey) => !key.revoked && !key.expired;

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={3} size="h4">
            {t('subscriptions.keys.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('subscriptions.keys.hint')}
          </Text>
        </div>
        {canRenew && accepted && (
          <Button variant="light" leftSection={<IconRefresh size={16} />} onClick={() => setRenewing(true)}>
            {t('subscriptions.keys.renew')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {keys.isPending ? (
          <Center py="lg">
            <Loader size="sm" aria-label={t('common.loading')} />
          </Center>
        ) : (keys.data ?? []).length === 0 ? (
          <Center py="lg">
            <Text size="sm" c="dimmed">
              {t('subscriptions.keys.empty')}
            </Text>
          </Center>
        ) : (
          <Table.ScrollContainer minWidth={480}>
            <Table verticalSpacing="sm" aria-label={t('subscriptions.keys.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('subscriptions.keys.key')}</Table.Th>
                  <Table.Th>{t('subscriptions.keys.dates')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('subscriptions.keys.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {(keys.data ?? []).map((key) => {
                  const state = keyState(key);
                  return (
                    <Table.Tr key={key.key} data-key-state={state.label}>
                      <Table.Td>
                        <Stack gap={4} align="flex-start">
                          <Group gap={6} wrap="nowrap" align="center">
                            {key.revoked ? (
                              <IconX size={16} color="var(--mantine-color-red-6)" aria-hidden />
                            ) : (
                              <IconKey size={16} color="var(--mantine-color-dimmed)" aria-hidden />
                            )}
                            <Text
                              size="sm"
                              ff="monospace"
                              td={key.revoked ? 'line-through' : undefined}
                              c={live(key) ? undefined : 'dimmed'}
                              style={{ overflowWrap: 'anywhere' }}
                              data-testid="api-key"
                            >
                              {key.key}
                            </Text>
                            <CopyButton value={key.key}>
                              {({ copied, copy }) => (
                                <Tooltip
                                  label={
                                    copied ? t('subscriptions.keys.copied') : t('subscriptions.keys.copy')
                                  }
                                >
                                  <ActionIcon
                                    variant="subtle"
                                    color={copied ? 'teal' : 'gray'}
                                    aria-label={t('subscriptions.keys.copyKey', { key: key.key })}
                                    onClick={() => {
                                      copy();
                                      notifySuccess('subscriptions.keys.copiedToast');
                                    }}
                                  >
                                    {copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                                  </ActionIcon>
                                </Tooltip>
                              )}
                            </CopyButton>
                          </Group>
                          <Badge variant="light" color={state.color} tt="none">
                            {t(`subscriptions.keys.states.${state.label}`)}
                          </Badge>
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          <Text size="xs" c="dimmed">
                            {t('subscriptions.keys.createdAt')} <DateText value={key.created_at} size="xs" />
                          </Text>
                          {(key.revoked || key.expire_at !== null) && (
                            <Text size="xs" c="dimmed">
                              {key.revoked
                                ? t('subscriptions.keys.revokedAt')
                                : t('subscriptions.keys.expiresAt')}{' '}
                              <DateText value={key.revoked ? key.revoked_at : key.expire_at} size="xs" />
                            </Text>
                          )}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          {canExpire && live(key) && (
                            <Tooltip label={t('subscriptions.keys.expire')}>
                              <ActionIcon
                                variant="subtle"
                                color="gray"
                                onClick={() => setExpiring(key)}
                                aria-label={t('subscriptions.keys.expireKey', { key: key.key })}
                              >
                                <IconCalendarTime size={16} />
                              </ActionIcon>
                            </Tooltip>
                          )}
                          {canRevoke && accepted && !key.revoked && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              onClick={() => setRevoking(key)}
                              aria-label={t('subscriptions.keys.revokeKey', { key: key.key })}
                            >
                              {t('subscriptions.keys.revoke')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <ConfirmDialog
        opened={renewing}
        title={t('subscriptions.keys.renewTitle')}
        confirmLabel={t('subscriptions.keys.renewConfirm')}
        loading={renew.isPending}
        onClose={() => setRenewing(false)}
        onConfirm={() =>
          renew.mutate(undefined, {
            onSuccess: () => {
              setRenewing(false);
              notifySuccess('subscriptions.keys.renewed');
            },
          })
        }
      >
        <Stack gap="xs">
          <ConfirmText>{t('subscriptions.keys.renewQuestion')}</ConfirmText>
          <ConfirmText>{t('subscriptions.keys.renewGrace')}</ConfirmText>
        </Stack>
      </ConfirmDialog>
      <ConfirmDialog
        opened={revoking !== null}
        title={t('subscriptions.keys.revokeTitle')}
        confirmLabel={t('subscriptions.keys.revokeConfirm')}
        color="red"
        loading={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() =>
          revoking &&
          revoke.mutate(revoking.key, {
            onSuccess: () => {
              notifySuccess('subscriptions.keys.revoked', { key: revoking.key });
              setRevoking(null);
            },
          })
        }
      >
        <ConfirmText>{t('subscriptions.keys.revokeQuestion', { key: revoking?.key ?? '' })}</ConfirmText>
      </ConfirmDialog>
      {expiring && owner.side === 'api' && (
        <ExpiryDialog
          apiId={owner.apiId}
          subscription={subscription}
          apiKey={expiring}
          onClose={() => setExpiring(null)}
        />
      )}
    </Stack>
  );
}

/** The date a key stops working: from now to the subscription's end (or the end of 2099). */
function ExpiryDialog({
  apiId,
  subscription,
  apiKey,
  onClose,
}: {
  apiId: string;
  subscription: Subscription;
  apiKey: ApiKey;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const expire = useExpireApiKey(apiId, subscription.id);
  const [date, setDate] = useState<number | null>(apiKey.expire_at);
  const [now] = useState(Date.now);
  const max = subscription.ending_at ?? API_KEY_MAX_EXPIRY;
  const error =
    date === null
      ? undefined
      : date < now
        ? t('subscriptions.keys.expiryInPast')
        : date > max
          ? t('subscriptions.keys.expiryTooLate')
          : undefined;
  return (
    <ConfirmDialog
      opened
      title={t('subscriptions.keys.expireTitle')}
      confirmLabel={t('subscriptions.keys.expireConfirm')}
      loading={expire.isPending}
      confirmDisabled={date === null || !!error}
      onClose={onClose}
      onConfirm={() => {
        if (date === null || error) return;
        expire.mutate(
          { key: apiKey.key, expire_at: date },
          {
            onSuccess: () => {
              notifySuccess('subscriptions.keys.expired');
              onClose();
            },
          },
        );
      }}
    >
      <Stack gap="sm">
        <ConfirmText>{t('subscriptions.keys.expireHint', { key: apiKey.key })}</ConfirmText>
        <DateTimeField
          label={t('subscriptions.keys.expireAt')}
          value={date}
          onChange={setDate}
          min={now}
          max={max}
          error={error}
          clearable={false}
          required
        />
      </Stack>
    </ConfirmDialog>
  );
}
