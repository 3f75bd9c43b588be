import { Anchor, Breadcrumbs, Stack, Text, ThemeIcon, Title, UnstyledButton } from '@mantine/core';
import { IconCheck, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../notify';
import type { WizardPage, WizardPlan } from '../../api/create-api';
import { useCreateApi } from '../../api/create-api';
import type { PlanStepValues } from '../../rules';
import { pageNameOf } from '../../rules';
import type { GatewayValues, GeneralValues } from './wizard-steps';
import { GatewayStep, GeneralStep } from './wizard-steps';
import { EMPTY_PLAN, PlanStep } from './wizard-plan-step';
import { DocumentationStep } from './wizard-documentation-step';
import { Confirmation } from './wizard-confirmation';
import classes from './creation-wizard.module.css';

const STEPS = ['general', 'gateway', 'plan', 'documentation', 'confirmation'] as const;
type Status = 'todo' | 'done' | 'skipped';

/** The plan step's values as the creation sends them (empty restrictions and patterns dropped). */
export function toWizardPlan(values: PlanStepValues): WizardPlan {
  const block = <U extends string>(b: PlanStepValues['rateLimit']) =>
    b.limit !== '' && b.periodTime !== '' && b.periodTimeUnit
      ? { limit: b.limit, periodTime: b.periodTime, periodTimeUnit: b.periodTimeUnit as U }
      : undefined;
  return {
    name: values.name.trim(),
    security: values.security === 'API_KEY' ? 'API_KEY' : 'KEY_LESS',
    description: values.description.trim(),
    rateLimit: block<'SECONDS' | 'MINUTES'>(values.rateLimit),
    quota: block<'HOURS' | 'DAYS' | 'WEEKS' | 'MONTHS'>(values.quota),
    paths: values.paths
      .filter((p) => p.pattern.trim() !== '')
      .map((p) => ({ pattern: p.pattern.trim(), methods: p.methods })),
  };
}

/**
 * `/management/apis/new/create`: the five steps (General, Gateway, Plan, Documentation, Confirmation) with
 * their timeline. Progress is forward only; the plan and the documentation may be skipped; the
 * confirmation sends back to any step to change it.
 */
export function CreationWizard() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateApi();
  const [active, setActive] = useState(0);
  const [status, setStatus] = useState<Status[]>(['todo', 'todo', 'todo', 'todo', 'todo']);
  const [general, setGeneral] = useState<GeneralValues>({
    name: '',
    version: '',
    description: '',
    context_path: '',
  });
  const [verified, setVerified] = useState<string | null>(null);
  const [gateway, setGateway] = useState<GatewayValues>({ endpoint: '' });
  const [plan, setPlan] = useState<PlanStepValues>(EMPTY_PLAN);
  const [pages, setPages] = useState<WizardPage[]>([]);

  const reached = status.findIndex((s) => s === 'todo');
  const maxReachable = reached === -1 ? STEPS.length - 1 : reached;
  const finish = (step: number, result: Status) => {
    setStatus((current) => current.map((s, i) => (i === step ? result : s)));
    // Back from the confirmation to change a step: straight back to the confirmation.
    setActive(status.slice(step + 1, 4).every((s) => s !== 'todo') ? 4 : step + 1);
  };

  const submit = (deploy: boolean) =>
    create.mutate(
      {
        api: {
          name: general.name.trim(),
          version: general.version.trim(),
          description: general.description.trim(),
          context_path: general.context_path.trim(),
          endpoint: gateway.endpoint.trim(),
        },
        plan: status[2] === 'done' ? toWizardPlan(plan) : undefined,
        pages:
          status[3] === 'done'
            ? pages.map((p) => ({ ...p, name: p.name.trim() || pageNameOf(p.fileName) }))
            : [],
        deploy,
      },
      {
        onSuccess: (api) => {
          notifySuccess(deploy ? 'apis.wizard.createdAndStarted' : 'apis.wizard.created', { name: api.name });
          void navigate(`/management/apis/${encodeURIComponent(api.id)}/portal`);
        },
      },
    );

  return (
    <Stack gap="lg" maw={1200}>
      <Breadcrumbs>
        <Anchor component={Link} to="/management/apis" size="sm">
          {t('apis.list.title')}
        </Anchor>
        <Anchor component={Link} to="/management/apis/new" size="sm">
          {t('apis.new.title')}
        </Anchor>
        <Text size="sm">{t('apis.wizard.title')}</Text>
      </Breadcrumbs>
      <Title order={1} size="h2">
        {t('apis.wizard.title')}
      </Title>
      <div className={classes.layout}>
        <nav aria-label={t('apis.wizard.timeline')}>
          <ol className={classes.timeline}>
            {STEPS.map((step, index) => {
              const state = status[index]!;
              const disabled = index > maxReachable;
              return (
                <li key={step} className={classes.item} data-active={index === active || undefined}>
                  <UnstyledButton
                    className={classes.step}
                    disabled={disabled}
                    aria-current={index === active ? 'step' : undefined}
                    onClick={() => setActive(index)}
                  >
                    <ThemeIcon
                      radius="xl"
                      size={28}
                      variant={state === 'todo' ? (index === active ? 'filled' : 'light') : 'filled'}
                      color={
                        state === 'done'
                          ? 'teal'
                          : state === 'skipped'
                            ? 'gray'
                            : disabled
                              ? 'gray'
                              : undefined
                      }
                    >
                      {state === 'done' ? (
                        <IconCheck size={16} />
                      ) : state === 'skipped' ? (
                        <IconX size={16} />
                      ) : (
                        <Text size="xs" fw={700}>
                          {index + 1}
                        </Text>
                      )}
                    </ThemeIcon>
                    <div>
                      <Text size="sm" fw={600} c={disabled ? 'dimmed' : undefined}>
                        {t(`apis.wizard.steps.${step}`)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {state === 'skipped'
                          ? t('apis.wizard.skipped')
                          : index === 2 || index === 3
                            ? t('apis.wizard.optional')
                            : state === 'done'
                              ? t('apis.wizard.completed')
                              : ''}
                      </Text>
                    </div>
                  </UnstyledButton>
                </li>
              );
            })}
          </ol>
        </nav>
        <div>
          {active === 0 && (
            <GeneralStep
              initial={general}
              verified={verified}
              onCancel={() => void navigate('/management/apis/new')}
              onNext={(values, path) => {
                setGeneral(values);
                setVerified(path);
                finish(0, 'done');
              }}
            />
          )}
          {active === 1 && (
            <GatewayStep
              initial={gateway}
              onPrevious={() => setActive(0)}
              onNext={(values) => {
                setGateway(values);
                finish(1, 'done');
              }}
            />
          )}
          {active === 2 && (
            <PlanStep
              initial={plan}
              onPrevious={() => setActive(1)}
              onSkip={() => finish(2, 'skipped')}
              onNext={(values) => {
                setPlan(values);
                finish(2, 'done');
              }}
            />
          )}
          {active === 3 && (
            <DocumentationStep
              initial={pages}
              onPrevious={() => setActive(2)}
              onSkip={() => finish(3, 'skipped')}
              onNext={(chosen) => {
                setPages(chosen);
                finish(3, 'done');
              }}
            />
          )}
          {active === 4 && (
            <Confirmation
              general={general}
              gateway={gateway}
              plan={status[2] === 'done' ? toWizardPlan(plan) : undefined}
              pages={status[3] === 'done' ? pages : []}
              pending={create.isPending}
              onEdit={setActive}
              onPrevious={() => setActive(3)}
              onCreate={submit}
            />
          )}
        </div>
      </div>
    </Stack>
  );
}
