import { Button } from '@mantine/core';
import { IconArchive, IconPencil, IconSend, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText, isHttpError } from '../../../shared/http';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifyFailure, notifySuccess } from '../../../shared/ui/notify';
import type { PlanAction } from '../api/plans';
import { useDeletePlan, usePlanAction } from '../api/plans';
import type { Plan } from '../api/types';

type Asked = PlanAction | 'delete' | null;

const DONE: Record<PlanAction | 'delete', TranslationKey> = {
  publish: 'plans.publish.done',
  deprecate: 'plans.deprecate.done',
  close: 'plans.close.done',
  delete: 'plans.delete.done',
};

/**
 * What the user may do with a plan (api-plan-u): edit (not once closed), publish (staging), deprecate
 * (published), close (any not closed, typing its name); delete (api-plan-d) a staging or closed plan.
 */
export function PlanActions({
  apiId,
  plan,
  can,
}: {
  apiId: string;
  plan: Plan;
  can: (permission: string) => boolean;
}) {
  const { t } = useTranslation();
  const action = usePlanAction(apiId);
  const remove = useDeletePlan(apiId);
  const [asked, setAsked] = useState<Asked>(null);
  const update = can('api-plan-u');
  const closed = plan.status === 'CLOSED';
  const done = () => {
    if (asked) notifySuccess(DONE[asked], { name: plan.name });
    setAsked(null);
  };
  const run = () => {
    if (asked === 'delete') remove.mutate(plan, { onSuccess: done });
    else if (asked === 'close')
      action.mutate(
        { plan, action: 'close', silent: true },
        {
          onSuccess: done,
          onError: (error) =>
            notifyFailure('plans.close.failed', {
              name: plan.name,
              reason: isHttpError(error) ? errorText(error.data, error.statusText) : '',
            }),
        },
      );
    else if (asked) action.mutate({ plan, action: asked }, { onSuccess: done });
  };

  return (
    <>
      {update && !closed && (
        <Button
          component={Link}
          to={`${encodeURIComponent(plan.id)}/edit`}
          size="xs"
          variant="default"
          leftSection={<IconPencil size={14} />}
          aria-label={t('plans.actions.editPlan', { name: plan.name })}
        >
          {t('plans.actions.edit')}
        </Button>
      )}
      {update && plan.status === 'STAGING' && (
        <Button
          size="xs"
          variant="light"
          color="teal"
          leftSection={<IconSend size={14} />}
          onClick={() => setAsked('publish')}
          aria-label={t('plans.actions.publishPlan', { name: plan.name })}
        >
          {t('plans.actions.publish')}
        </Button>
      )}
      {update && plan.status === 'PUBLISHED' && (
        <Button
          size="xs"
          variant="light"
          color="orange"
          leftSection={<IconArchive size={14} />}
          onClick={() => setAsked('deprecate')}
          aria-label={t('plans.actions.deprecatePlan', { name: plan.name })}
        >
          {t('plans.actions.deprecate')}
        </Button>
      )}
      {update && !closed && (
        <Button
          size="xs"
          variant="light"
          color="red"
          leftSection={<IconX size={14} />}
          onClick={() => setAsked('close')}
          aria-label={t('plans.actions.closePlan', { name: plan.name })}
        >
          {t('plans.actions.close')}
        </Button>
      )}
      {can('api-plan-d') && (plan.status === 'STAGING' || closed) && (
        <Button
          size="xs"
          variant="subtle"
          color="red"
          leftSection={<IconTrash size={14} />}
          onClick={() => setAsked('delete')}
          aria-label={t('plans.actions.deletePlan', { name: plan.name })}
        >
          {t('plans.actions.delete')}
        </Button>
      )}
      <ConfirmDialog
        key={asked ?? 'none'}
        opened={asked !== null}
        title={asked ? t(`plans.${asked}.title`) : ''}
        confirmLabel={asked ? t(`plans.${asked}.confirm`) : ''}
        color={asked === 'close' || asked === 'delete' ? 'red' : asked === 'deprecate' ? 'orange' : 'teal'}
        typed={asked === 'close' ? plan.name : undefined}
        loading={action.isPending || remove.isPending}
        onClose={() => setAsked(null)}
        onConfirm={run}
      >
        {asked && <ConfirmText>{t(`plans.${asked}.question`, { name: plan.name })}</ConfirmText>}
      </ConfirmDialog>
    </>
  );
}
