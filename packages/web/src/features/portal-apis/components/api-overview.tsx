import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isAvailable } from '../../../app/screens';
import { useSession } from '../../../shared/session/current-user';
import { HomepageSection } from '../../portal-pages/components/homepage-section';
import { usePublishedPlans } from '../api/portal-api';
import classes from './api-detail.module.css';
import { PlanCard } from './plan-card';

/** `/apis/{apiId}/detail`: the API's homepage page and its published plans. */
export function ApiOverview() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { user } = useSession();
  const plans = usePublishedPlans(apiId);
  const subscribe = !!user && isAvailable('portal.api.subscribe');
  const base = `/apis/${encodeURIComponent(apiId)}`;
  return (
    <Stack gap="xl">
      <HomepageSection scope={{ apiId }} />
      <section aria-labelledby="api-plans">
        <Title order={2} size="h3" mb="md" id="api-plans">
          {t('portalApi.plans.title')}
        </Title>
        {plans.isPending ? (
          <Skeleton height={160} />
        ) : (plans.data ?? []).length === 0 ? (
          <Paper withBorder radius="md" p="lg">
            <Text c="dimmed">{t('portalApi.plans.empty')}</Text>
          </Paper>
        ) : (
          <div className={classes.plans}>
            {plans.data!.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                subscribeTo={
                  subscribe ? `${base}/subscribe?planId=${encodeURIComponent(plan.id)}` : undefined
                }
              />
            ))}
          </div>
        )}
      </section>
    </Stack>
  );
}
