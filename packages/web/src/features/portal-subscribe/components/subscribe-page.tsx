import { Anchor, Button, Group, Paper, Skeleton, Stack, Stepper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useOutletContext, useSearchParams } from 'react-router';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Application } from '../../applications/api/types';
import type { PortalApi } from '../../portal-apis/api/portal-api';
import { usePublishedPlans } from '../../portal-apis/api/portal-api';
import type { WizardPlan, WizardSubscription } from '../api/subscribe-api';
import { ApplicationStep } from './application-step';
import { OutcomeStep } from './outcome-step';
import { PlanStep } from './plan-step';

/**
 * `/apis/{apiId}/subscribe?planId` (portal-and-platform.md 2 and 4): the subscription wizard in three
 * steps: the plan, then (for a plan that is not key-less) the application and message, then the outcome.
 * Picking a plan clears the chosen application and subscription. A plan named in the URL is picked
 * already, and the wizard opens on the application step.
 */
export function SubscribePage() {
  const { t } = useTranslation();
  const api = useOutletContext<PortalApi>();
  const [params, setParams] = useSearchParams();
  // The portal's plan list answers comment_message too.
  const plans = usePublishedPlans(api.id);
  const [active, setActive] = useState<number | null>(null);
  const [application, setApplication] = useState<Application | null>(null);
  const [subscription, setSubscription] = useState<WizardSubscription | null>(null);

  if (plans.isPending) return <Skeleton height={240} />;
  const list = (plans.data ?? []) as WizardPlan[];
  const planId = params.get('planId');
  const plan = list.find((p) => p.id === planId && p.security !== 'KEY_LESS') ?? null;
  const step = subscription ? 3 : plan ? (active ?? 1) : 0;

  const pickPlan = (picked: WizardPlan) => {
    setApplication(null);
    setSubscription(null);
    setParams({ planId: picked.id }, { replace: true });
    setActive(1);
  };

  return (
    <Stack gap="lg">
      <div>
        <Title order={2} size="h3">
          {t('portalSubscribe.title', { api: api.name })}
        </Title>
        <Text c="dimmed" size="sm">
          {t('portalSubscribe.intro')}
        </Text>
      </div>
      {list.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed">{t('portalSubscribe.noPlan')}</Text>
        </Paper>
      ) : (
        <Stepper
          active={step}
          onStepClick={(index) => index === 0 && !subscription && setActive(0)}
          allowNextStepsSelect={false}
          size="sm"
        >
          <Stepper.Step
            label={t('portalSubscribe.steps.plan')}
            description={plan?.name}
            allowStepSelect={step === 1}
          >
            <Stack gap="md">
              <PlanStep plans={list} planId={plan?.id ?? null} onPlan={pickPlan} />
              {plan && (
                <Group justify="flex-end">
                  <Button onClick={() => setActive(1)}>{t('portalSubscribe.continue')}</Button>
                </Group>
              )}
            </Stack>
          </Stepper.Step>
          <Stepper.Step
            label={t('portalSubscribe.steps.application')}
            description={application?.name}
            allowStepSelect={false}
          >
            {plan && (
              <ApplicationStep
                plan={plan}
                application={application}
                onApplication={(chosen) => {
                  setApplication(chosen);
                  setSubscription(null);
                }}
                onBack={() => setActive(0)}
                onSubscribed={(created) => {
                  notifySuccess('portalSubscribe.subscribed', { plan: created.plan.name });
                  setSubscription(created);
                }}
              />
            )}
          </Stepper.Step>
          <Stepper.Step label={t('portalSubscribe.steps.outcome')} allowStepSelect={false} />
          <Stepper.Completed>
            {subscription && (
              <Stack gap="md">
                <OutcomeStep api={api} subscription={subscription} />
                <Anchor component={Link} to={`/apis/${encodeURIComponent(api.id)}/detail`} size="sm">
                  {t('portalSubscribe.backToApi', { api: api.name })}
                </Anchor>
              </Stack>
            )}
          </Stepper.Completed>
        </Stepper>
      )}
    </Stack>
  );
}
