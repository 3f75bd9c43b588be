import { Badge, Button, Center, EmptyState, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLayoutCards, IconPlus } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { useApiPermissions } from '../../../shared/session/api-permissions';
import { usePlans } from '../api/plans';
import type { Plan, PlanStatus } from '../api/types';
import { PLAN_STATUSES } from '../rules';
import { PlanActions } from './plan-actions';
import { PlanCard } from './plan-card';
import classes from './plans-page.module.css';
import { SortablePlanList } from './sortable-plan-list';

const parseStatus = (value: string | null): PlanStatus => {
  const upper = (value ?? '').toUpperCase();
  return (PLAN_STATUSES as readonly string[]).includes(upper) ? (upper as PlanStatus) : 'PUBLISHED';
};

/**
 * plans.list (`/management/apis/{apiId}/plans?state=`): the API's plans of one status (published by
 * default) with the count of each, the actions the user may take on each, and drag-and-drop ordering of
 * the published ones.
 */
export function PlansPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const status = parseStatus(params.get('state'));
  const permissions = useApiPermissions(apiId);
  const plans = usePlans(apiId);
  const canCreate = permissions.has('api-plan-c');
  const canUpdate = permissions.has('api-plan-u');
  const all = plans.data ?? [];
  const shown = all.filter((plan) => plan.status === status).sort((a, b) => a.order - b.order);
  const sortable = status === 'PUBLISHED' && canUpdate && shown.length > 1;
  const actions = (plan: Plan) => <PlanActions apiId={apiId} plan={plan} can={permissions.has} />;

  // On first load, an empty status gives way to the first one with plans (staging, published, deprecated,
  // closed): the list does not open on an empty tab while others have plans.
  const firstLoad = useRef(true);
  useEffect(() => {
    if (!plans.data || !firstLoad.current) return;
    firstLoad.current = false;
    if (plans.data.some((plan) => plan.status === status)) return;
    const first = PLAN_STATUSES.find((value) => plans.data.some((plan) => plan.status === value));
    if (first) setParams({ state: first.toLowerCase() }, { replace: true });
  }, [plans.data, status, setParams]);

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('plans.list.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('plans.list.hint')}
          </Text>
        </div>
        {canCreate && (
          <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
            {t('plans.list.add')}
          </Button>
        )}
      </Group>
      <Group gap="xs" role="group" aria-label={t('plans.list.filter')}>
        {PLAN_STATUSES.map((value) => {
          const count = all.filter((plan) => plan.status === value).length;
          const active = value === status;
          return (
            <Button
              key={value}
              variant={active ? 'filled' : 'default'}
              aria-pressed={active}
              size="sm"
              rightSection={
                <Badge
                  size="sm"
                  variant={active ? 'white' : 'light'}
                  color={active ? 'dark' : 'gray'}
                  className={classes.count}
                >
                  {count}
                </Badge>
              }
              onClick={() =>
                setParams(
                  (current) => {
                    const next = new URLSearchParams(current);
                    next.set('state', value.toLowerCase());
                    return next;
                  },
                  { replace: true },
                )
              }
            >
              {t(`plans.statusFilter.${value}`)}
            </Button>
          );
        })}
      </Group>
      {plans.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : shown.length === 0 ? (
        <Paper withBorder radius="md" py={48} px="lg">
          <EmptyState
            variant="light"
            icon={<IconLayoutCards size={32} stroke={1.5} />}
            title={t('plans.list.empty')}
            description={t('plans.list.emptyHint', { status: t(`plans.status.${status}`) })}
          >
            {canCreate && (
              <EmptyState.Actions>
                <Button component={Link} to="new" leftSection={<IconPlus size={16} />}>
                  {t('plans.list.add')}
                </Button>
              </EmptyState.Actions>
            )}
          </EmptyState>
        </Paper>
      ) : sortable ? (
        <>
          <Text size="xs" c="dimmed">
            {t('plans.list.reorderHint')}
          </Text>
          <SortablePlanList apiId={apiId} plans={shown} actions={actions} />
        </>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {shown.map((plan) => (
            <li key={plan.id}>
              <PlanCard plan={plan} actions={actions(plan)} />
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
