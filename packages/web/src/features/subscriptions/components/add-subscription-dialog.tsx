import { Alert, Button, Group, Loader, Modal, Radio, Select, Stack, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconInfoCircle } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { SUBSCRIPTION_REQUEST_MAX } from '@portico/model';
import { http } from '../../../shared/http';
import { notifySuccess } from '../../../shared/ui/notify';
import { useApiPlans, useApiSubscriptions, useCreateSubscription } from '../api/api-subscriptions';
import { subscriptionKeys } from '../api/subscription-keys';
import { DialogForm } from '../../../shared/ui/dialog-form';

const SEARCH_DELAY = 500;

/** `GET applications?query=`: the applications the user may subscribe, by name. */
const useApplicationSearch = (query: string) =>
  useQuery({
    queryKey: subscriptionKeys.applications(query),
    queryFn: ({ signal }) =>
      http.get<{ id: string; name: string; owner: { displayName: string } | null }[]>('applications', {
        query: { query: query || undefined },
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/**
 * Subscribes an application to a published plan of the API: the application is searched by name, the
 * plan picked from a list where key-less plans are not offered and plans the application already has a
 * pending or accepted subscription to are disabled.
 */
export function AddSubscriptionDialog({
  apiId,
  opened,
  onClose,
}: {
  apiId: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const [query] = useDebouncedValue(search.trim(), SEARCH_DELAY);
  const [application, setApplication] = useState<string | null>(null);
  const [plan, setPlan] = useState<string | null>(null);
  const [request, setRequest] = useState('');
  const applications = useApplicationSearch(query);
  const plans = useApiPlans(apiId);
  const existing = useApiSubscriptions(apiId, {
    page: 1,
    size: 100,
    status: ['PENDING', 'ACCEPTED'],
    application: application ? [application] : [],
  });
  const create = useCreateSubscription(apiId);
  const taken = new Set(application ? (existing.data?.data ?? []).map((s) => s.plan) : []);
  const offered = (plans.data ?? [])
    .filter((p) => p.status === 'PUBLISHED' && p.security !== 'KEY_LESS')
    .sort((a, b) => a.order - b.order);
  const chosen = offered.find((p) => p.id === plan);
  const needsMessage = chosen?.comment_required === true;
  const valid =
    !!application && !!chosen && !taken.has(chosen.id) && (!needsMessage || request.trim().length > 0);
  const close = () => {
    setSearch('');
    setApplication(null);
    setPlan(null);
    setRequest('');
    onClose();
  };
  const submit = () => {
    if (!valid) return;
    create.mutate(
      { plan: chosen.id, application, request: request.trim() || undefined },
      {
        onSuccess: (created) => {
          notifySuccess('subscriptions.add.done');
          close();
          navigate(
            `/management/apis/${encodeURIComponent(apiId)}/subscriptions/${encodeURIComponent(created.id)}`,
          );
        },
      },
    );
  };

  return (
    <Modal opened={opened} onClose={close} title={t('subscriptions.add.title')} size="lg" centered>
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <Select
            label={t('subscriptions.add.application')}
            placeholder={t('subscriptions.add.applicationPlaceholder')}
            required
            searchable
            data-autofocus
            searchValue={search}
            onSearchChange={setSearch}
            data={(applications.data ?? []).map((a) => ({
              value: a.id,
              label: a.owner ? `${a.name} (${a.owner.displayName})` : a.name,
            }))}
            value={application}
            onChange={(value) => {
              setApplication(value);
              setPlan(null);
            }}
            filter={({ options }) => options}
            nothingFoundMessage={
              applications.isFetching ? t('common.loading') : t('subscriptions.add.noApplication')
            }
            rightSection={applications.isFetching ? <Loader size={14} /> : undefined}
          />
          <Radio.Group
            label={t('subscriptions.add.plan')}
            required
            value={plan}
            onChange={setPlan}
            description={application ? undefined : t('subscriptions.add.pickApplicationFirst')}
          >
            <Stack gap="xs" mt="xs">
              {offered.length === 0 ? (
                <Alert variant="light" color="gray" icon={<IconInfoCircle size={18} />}>
                  {t('subscriptions.add.noPlan')}
                </Alert>
              ) : (
                offered.map((p) => (
                  <Radio
                    key={p.id}
                    value={p.id}
                    disabled={!application || taken.has(p.id)}
                    label={
                      <Group gap={6}>
                        <Text size="sm" fw={500}>
                          {p.name}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {t(`subscriptions.security.${p.security}`)}
                        </Text>
                      </Group>
                    }
                    description={taken.has(p.id) ? t('subscriptions.add.alreadySubscribed') : undefined}
                  />
                ))
              )}
            </Stack>
          </Radio.Group>
          {needsMessage && (
            <Textarea
              label={t('subscriptions.add.request')}
              description={chosen?.comment_message ?? undefined}
              required
              maxLength={SUBSCRIPTION_REQUEST_MAX}
              value={request}
              onChange={(event) => setRequest(event.currentTarget.value)}
              autosize
              minRows={2}
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" disabled={!valid} loading={create.isPending}>
              {t('subscriptions.add.confirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
