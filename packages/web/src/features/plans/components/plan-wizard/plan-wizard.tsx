import {
  Anchor,
  Button,
  Center,
  Grid,
  Group,
  Loader,
  Paper,
  Stack,
  Stepper,
  Text,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconArrowLeft, IconArrowRight, IconDeviceFloppy } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import type { TranslationKey } from '../../../../shared/i18n/keys';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { notifySuccess } from '../../../../shared/ui/notify';
import { useCreatePlan, usePlan, usePolicies, useUpdatePlan } from '../../api/plans';
import type { Plan, PolicyDescription } from '../../api/types';
import { RESTRICTION_POLICIES } from '../../rules';
import { DefineStep } from './define-step';
import type { PlanErrors, PlanFormValues, WizardStep } from './plan-form';
import { WIZARD_STEPS, completed, formValuesOf, planErrors, planInputOf, stepOfField } from './plan-form';
import { PlanPreview } from './plan-preview';
import { PoliciesStep } from './policies-step';
import { RestrictionsStep } from './restrictions-step';
import { SecureStep } from './secure-step';
import { securitySchema } from './security-schemas';

/** Widths of the page's own area (container queries): the preview goes beside the steps from 52em. */
const GRID_BREAKPOINTS = { xs: '20em', sm: '30em', md: '52em', lg: '64em', xl: '80em' };

/**
 * plans.new, plans.plan and `/plans/{planId}/edit`: the four-step plan wizard (Define, Secure,
 * Restrictions, Policies) with a live preview of the plan.
 */
export function PlanWizard() {
  const { t } = useTranslation();
  const { apiId = '', planId } = useParams();
  const permissions = useApiPermissions(apiId);
  const plan = usePlan(apiId, planId);
  const policies = usePolicies();
  const mode = planId ? 'edit' : 'create';

  const listPath = `/management/apis/${encodeURIComponent(apiId)}/plans`;
  if (!permissions.has(mode === 'create' ? 'api-plan-c' : 'api-plan-u'))
    return <Navigate to={listPath} replace />;
  if (plan.data?.status === 'CLOSED') return <Navigate to={`${listPath}?state=closed`} replace />;
  if ((planId && !plan.data) || !policies.data) {
    return (
      <Center py="xl">
        {plan.isError || policies.isError ? (
          <Text c="dimmed">{t('errors.unexpected')}</Text>
        ) : (
          <Loader aria-label={t('common.loading')} />
        )}
      </Center>
    );
  }
  return <WizardForm key={plan.data?.id ?? 'new'} apiId={apiId} plan={plan.data} policies={policies.data} />;
}

function WizardForm({
  apiId,
  plan,
  policies,
}: {
  apiId: string;
  plan: Plan | undefined;
  policies: PolicyDescription[];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mode = plan ? 'edit' : 'create';
  const policyById = useMemo(() => new Map(policies.map((p) => [p.id, p] as const)), [policies]);
  const initialValues = useMemo(() => {
    const values = formValuesOf(plan);
    for (const policy of RESTRICTION_POLICIES) {
      const restriction = values.restrictions[policy];
      if (restriction.enabled)
        restriction.configuration = completed(policyById.get(policy)?.schema, restriction.configuration);
    }
    return values;
  }, [plan, policyById]);
  const form = useForm<PlanFormValues>({ initialValues });
  const [active, setActive] = useState(0);
  const [attempted, setAttempted] = useState<ReadonlySet<WizardStep>>(new Set());
  const create = useCreatePlan(apiId);
  const update = useUpdatePlan(apiId);
  const listPath = `/management/apis/${encodeURIComponent(apiId)}/plans`;

  const values = form.getValues();
  const errors = planErrors(values, mode, {
    security: securitySchema(values.security),
    policies: policyById,
  });
  const stepErrors = (step: WizardStep): PlanErrors =>
    Object.fromEntries(Object.entries(errors).filter(([field]) => stepOfField(field) === step));
  const stepValid = (step: WizardStep) => Object.keys(stepErrors(step)).length === 0;
  const valid = Object.keys(errors).length === 0;
  const step = WIZARD_STEPS[active]!;
  // A field shows its problem once it was left, or once Next or Save was tried on its step.
  const errorOf = (field: string): string | undefined => {
    const message = errors[field];
    if (!message) return undefined;
    const shown = attempted.has(stepOfField(field)) || form.isTouched(field);
    return shown ? t(message as TranslationKey) : undefined;
  };
  const attempt = (steps: WizardStep[]) => setAttempted((current) => new Set([...current, ...steps]));

  const next = () => {
    if (!stepValid(step)) {
      attempt([step]);
      return;
    }
    const target = Math.min(active + 1, WIZARD_STEPS.length - 1);
    // The chain's policies show what they lack as soon as they are added.
    if (WIZARD_STEPS[target] === 'policies') attempt(['policies']);
    setActive(target);
  };
  const save = () => {
    if (!valid) {
      attempt([...WIZARD_STEPS]);
      const first = WIZARD_STEPS.findIndex((s) => !stepValid(s));
      if (first >= 0) setActive(first);
      return;
    }
    const input = planInputOf(values, plan);
    const done = (saved: Plan) => {
      notifySuccess('plans.wizard.saved', { name: saved.name });
      navigate(`${listPath}?state=${saved.status.toLowerCase()}`);
    };
    if (plan) update.mutate({ id: plan.id, ...input }, { onSuccess: done });
    else create.mutate(input, { onSuccess: done });
  };
  const saving = create.isPending || update.isPending;
  const canSave = valid && (mode === 'create' || form.isDirty());
  const last = active === WIZARD_STEPS.length - 1;

  return (
    <Stack gap="lg">
      <div>
        <Anchor component={Link} to={listPath} size="sm">
          <Group gap={4} component="span">
            <IconArrowLeft size={14} />
            {t('plans.wizard.back')}
          </Group>
        </Anchor>
        <Title order={2} size="h3" mt={4}>
          {plan ? t('plans.wizard.editTitle', { name: plan.name }) : t('plans.wizard.createTitle')}
        </Title>
      </div>
      <Grid gap="lg" type="container" breakpoints={GRID_BREAKPOINTS}>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              if (last || mode === 'edit') save();
              else next();
            }}
          >
            <Stack gap="lg">
              <Stepper
                active={active}
                onStepClick={(index) => {
                  if (WIZARD_STEPS[index] === 'policies') attempt(['policies']);
                  setActive(index);
                }}
                allowNextStepsSelect={mode === 'edit'}
                size="sm"
                wrap={false}
              >
                {WIZARD_STEPS.map((s) => (
                  <Stepper.Step
                    key={s}
                    label={t(`plans.wizard.steps.${s}`)}
                    description={t(`plans.wizard.stepHints.${s}`)}
                    color={attempted.has(s) && !stepValid(s) ? 'red' : undefined}
                  />
                ))}
              </Stepper>
              <Paper withBorder radius="md" p="lg">
                {step === 'define' && <DefineStep form={form} errorOf={errorOf} mode={mode} />}
                {step === 'secure' && (
                  <SecureStep
                    form={form}
                    mode={mode}
                    showErrors={attempted.has('secure')}
                    errorOf={errorOf}
                  />
                )}
                {step === 'restrictions' && (
                  <RestrictionsStep
                    form={form}
                    policies={policyById}
                    showErrors={attempted.has('restrictions')}
                  />
                )}
                {step === 'policies' && (
                  <PoliciesStep
                    form={form}
                    policies={policies}
                    showErrors={attempted.has('policies')}
                    errorOf={errorOf}
                  />
                )}
              </Paper>
              <Group justify="space-between">
                <Group gap="sm">
                  {active > 0 ? (
                    <Button
                      variant="default"
                      leftSection={<IconArrowLeft size={16} />}
                      onClick={() => setActive(active - 1)}
                    >
                      {t('plans.wizard.previous')}
                    </Button>
                  ) : (
                    <Button variant="default" component={Link} to={listPath}>
                      {t('common.cancel')}
                    </Button>
                  )}
                </Group>
                <Group gap="sm">
                  {!last && (
                    <Button
                      variant={mode === 'edit' ? 'default' : 'filled'}
                      rightSection={<IconArrowRight size={16} />}
                      onClick={next}
                    >
                      {t('plans.wizard.next')}
                    </Button>
                  )}
                  {(last || mode === 'edit') && (
                    <Button
                      type="submit"
                      leftSection={<IconDeviceFloppy size={16} />}
                      loading={saving}
                      disabled={!canSave}
                    >
                      {t('common.save')}
                    </Button>
                  )}
                </Group>
              </Group>
            </Stack>
          </form>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <PlanPreview values={values} status={plan?.status ?? 'STAGING'} policies={policyById} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
