import { Alert, Button, Group, Select, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { IconAlertTriangle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Application } from '../../applications/api/types';
import type { WizardPlan, WizardSubscription } from '../api/subscribe-api';
import { useExistingSubscriptions, useMyApplications, useSubscribe } from '../api/subscribe-api';
import { REQUEST_MAX, clientIdOf, needsClientId } from '../samples';
import { NewApplicationForm } from './new-application-form';

/**
 * Step 2 (portal-and-platform.md 4 and 5): the application, searched among the user's by name; each
 * change of the search text clears the chosen application, and choosing one checks its pending and
 * accepted subscriptions to the plan. Subscribing needs an application without such a subscription, a
 * client id for OAuth2 and JWT plans, the message when the plan requires one, and at most 150
 * characters of message.
 */
export function ApplicationStep({
  plan,
  application,
  onApplication,
  onBack,
  onSubscribed,
}: {
  plan: WizardPlan;
  application: Application | null;
  onApplication: (application: Application | null) => void;
  onBack: () => void;
  onSubscribed: (subscription: WizardSubscription) => void;
}) {
  const { t } = useTranslation();
  const applications = useMyApplications();
  const existing = useExistingSubscriptions(application?.id ?? null, plan.id);
  const subscribe = useSubscribe();
  const [search, setSearch] = useState(application?.name ?? '');
  const [request, setRequest] = useState('');
  const [creating, setCreating] = useState(false);

  if (applications.isPending) return <Skeleton height={180} />;
  const mine = applications.data ?? [];
  const alreadySubscribed = !!application && existing.data === true;
  const clientIdMissing = !!application && needsClientId(plan.security) && !clientIdOf(application);
  const requestMissing = plan.comment_required && !request.trim();
  const requestTooLong = request.length > REQUEST_MAX;
  const allowed =
    !!application &&
    existing.data === false &&
    !clientIdMissing &&
    !requestMissing &&
    !requestTooLong &&
    plan.security !== 'KEY_LESS';

  const choose = (created: Application) => {
    setCreating(false);
    setSearch(created.name);
    onApplication(created);
  };

  return (
    <Stack gap="md">
      {mine.length === 0 || creating ? (
        <>
          {mine.length === 0 && (
            <Alert variant="light" title={t('portalSubscribe.application.noneTitle')}>
              {t('portalSubscribe.application.none')}
            </Alert>
          )}
          <NewApplicationForm
            clientIdNeeded={needsClientId(plan.security)}
            onCreated={choose}
            onCancel={mine.length > 0 ? () => setCreating(false) : undefined}
          />
        </>
      ) : (
        <Group align="flex-end" gap="sm" wrap="wrap">
          <Select
            label={t('portalSubscribe.application.label')}
            placeholder={t('portalSubscribe.application.placeholder')}
            searchable
            required
            style={{ flex: '1 1 280px' }}
            data={mine.map((a) => ({ value: a.id, label: a.name }))}
            value={application?.id ?? null}
            searchValue={search}
            onSearchChange={(text) => {
              setSearch(text);
              // A new search text drops the chosen application (and so the check of its subscriptions).
              if (application && text !== application.name) onApplication(null);
            }}
            onChange={(id) => onApplication(mine.find((a) => a.id === id) ?? null)}
            nothingFoundMessage={t('portalSubscribe.application.noMatch', { q: search })}
            error={
              alreadySubscribed
                ? t('portalSubscribe.application.alreadySubscribed')
                : clientIdMissing
                  ? t('portalSubscribe.application.clientIdRequired')
                  : undefined
            }
          />
          <Button
            variant="default"
            leftSection={<IconPlus size={16} aria-hidden />}
            onClick={() => setCreating(true)}
          >
            {t('portalSubscribe.application.create')}
          </Button>
        </Group>
      )}
      {clientIdMissing && (
        <Alert variant="light" color="orange" icon={<IconAlertTriangle size={18} aria-hidden />}>
          {t('portalSubscribe.application.clientIdHint')}
        </Alert>
      )}
      <Textarea
        label={t('portalSubscribe.request.label')}
        description={plan.comment_message || t('portalSubscribe.request.description')}
        required={plan.comment_required}
        autosize
        minRows={3}
        value={request}
        onChange={(event) => setRequest(event.currentTarget.value)}
        error={requestTooLong ? t('portalSubscribe.request.tooLong', { max: REQUEST_MAX }) : undefined}
      />
      <Text size="xs" c={requestTooLong ? 'red.8' : 'dimmed'} ta="right" mt={-8} aria-live="polite">
        {t('portalSubscribe.request.count', { length: request.length, max: REQUEST_MAX })}
      </Text>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          {t('portalSubscribe.back')}
        </Button>
        <Button
          disabled={!allowed}
          loading={subscribe.isPending || (!!application && existing.isFetching)}
          onClick={() =>
            application &&
            subscribe.mutate(
              { application: application.id, plan: plan.id, request },
              { onSuccess: onSubscribed },
            )
          }
        >
          {t('portalSubscribe.subscribe')}
        </Button>
      </Group>
    </Stack>
  );
}
