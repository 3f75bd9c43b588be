import {
  Button,
  Group,
  NumberInput,
  Paper,
  Select,
  Stack,
  Switch,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { SelectProps } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import { usePlans } from '../../plans/api/plans';
import type { Alert, AlertMetric, NotificationScope } from '../api/notification-settings';
import { useDeleteAlert, useSaveAlert } from '../api/notification-settings';
import type { AlertFormValues } from '../notification-rules';
import { alertFormValues, alertSchema, THRESHOLD_BOUNDS, toAlertInput } from '../notification-rules';
import { AlertHistory } from './alert-history';

/** The plans of an API an alert on requests may watch (empty: every plan). */
function PlanSelect({ apiId, ...props }: { apiId: string } & Omit<SelectProps, 'data'>) {
  const { t } = useTranslation();
  const plans = usePlans(apiId);
  return (
    <Select
      {...props}
      label={t('notificationSettings.alert.plan')}
      placeholder={t('notificationSettings.alert.anyPlan')}
      clearable
      data={(plans.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
    />
  );
}

/** An alert of the scope ('new': a blank alert on requests), then its history. */
export function AlertForm({
  scope,
  alert,
  metrics,
  canSave,
  canDelete,
}: {
  scope: NotificationScope;
  alert: Alert | undefined;
  metrics: readonly AlertMetric[];
  canSave: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveAlert(scope);
  const remove = useDeleteAlert(scope);
  const [confirming, setConfirming] = useState(false);
  const form = useForm<AlertFormValues>({
    initialValues: alertFormValues(alert),
    validate: schemaResolver(alertSchema, { sync: true }),
  });
  const v = form.values;
  const metric = metrics.find((m) => m.key === v.metricType);
  const bounds = THRESHOLD_BOUNDS[v.thresholdType as keyof typeof THRESHOLD_BOUNDS];
  const withPlan = scope.type === 'API' && v.type === 'request';
  const input = (field: keyof AlertFormValues) => ({
    ...translatedInput(form.getInputProps(field), t),
    readOnly: !canSave,
  });
  const submit = form.onSubmit((values) =>
    save.mutate(
      { ...(alert ? { id: alert.id } : {}), input: toAlertInput(values, withPlan) },
      {
        onSuccess: (saved) => {
          notifySuccess('notificationSettings.alert.saved', { name: saved.name });
          if (!alert) void navigate(`?alertId=${encodeURIComponent(saved.id)}`, { replace: true });
        },
      },
    ),
  );

  return (
    <Stack gap="lg">
      <Paper withBorder radius="md" p="md">
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Title order={3} size="h4">
              {alert ? alert.name : t('notificationSettings.alert.newTitle')}
            </Title>
            <TextInput label={t('notificationSettings.alert.name')} withAsterisk {...input('name')} />
            <Textarea
              label={t('notificationSettings.alert.description')}
              autosize
              minRows={2}
              {...input('description')}
            />
            <Switch
              label={t('notificationSettings.alert.enabled')}
              disabled={!canSave}
              {...form.getInputProps('enabled', { type: 'checkbox' })}
            />
            <Select
              label={t('notificationSettings.alert.type')}
              withAsterisk
              allowDeselect={false}
              data={[
                { value: 'request', label: t('notificationSettings.alert.types.request') },
                ...(scope.type === 'API'
                  ? [{ value: 'health_check', label: t('notificationSettings.alert.types.health_check') }]
                  : []),
              ]}
              {...input('type')}
              onChange={(value) => {
                form.setFieldValue('type', (value ?? 'request') as AlertFormValues['type']);
                form.setFieldValue('metricType', '');
                form.setFieldValue('thresholdType', '');
              }}
            />
            <Select
              label={t('notificationSettings.alert.metric')}
              withAsterisk
              data={metrics
                .filter((m) => m.type === v.type)
                .map((m) => ({ value: m.key, label: m.description }))}
              allowDeselect={false}
              {...input('metricType')}
              onChange={(value) => {
                form.setFieldValue('metricType', value ?? '');
                const next = metrics.find((m) => m.key === value);
                if (!next?.thresholds.some((th) => th.key === v.thresholdType))
                  form.setFieldValue('thresholdType', next?.thresholds[0]?.key ?? '');
              }}
            />
            <Group grow align="flex-start">
              <Select
                label={t('notificationSettings.alert.thresholdType')}
                withAsterisk
                data={(metric?.thresholds ?? []).map((th) => ({
                  value: th.key,
                  label: t(`notificationSettings.alert.thresholdTypes.${th.key}`),
                }))}
                allowDeselect={false}
                {...input('thresholdType')}
                onChange={(value) => form.setFieldValue('thresholdType', value ?? '')}
              />
              <NumberInput
                label={t('notificationSettings.alert.threshold')}
                description={
                  bounds
                    ? t('notificationSettings.alert.bounds', {
                        min: bounds.min,
                        max: bounds.max.toLocaleString(),
                      })
                    : undefined
                }
                withAsterisk
                allowDecimal
                {...input('threshold')}
              />
            </Group>
            {withPlan && scope.type === 'API' && (
              <PlanSelect
                apiId={scope.id}
                {...input('plan')}
                value={v.plan || null}
                onChange={(value) => form.setFieldValue('plan', value ?? '')}
              />
            )}
            {(canSave || (canDelete && alert)) && (
              <Group justify="flex-end" gap="sm">
                {canDelete && alert && (
                  <Button variant="default" color="red" onClick={() => setConfirming(true)}>
                    {t('notificationSettings.delete')}
                  </Button>
                )}
                {canSave && (
                  <Button type="submit" loading={save.isPending}>
                    {t('common.save')}
                  </Button>
                )}
              </Group>
            )}
          </Stack>
        </form>
      </Paper>
      {alert && <AlertHistory scope={scope} alertId={alert.id} />}
      {alert && (
        <ConfirmDialog
          opened={confirming}
          title={t('notificationSettings.deleteTitle')}
          confirmLabel={t('notificationSettings.delete')}
          color="red"
          loading={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() =>
            remove.mutate(alert.id, {
              onSuccess: () => {
                setConfirming(false);
                notifySuccess('notificationSettings.alert.deleted', { name: alert.name });
                void navigate('?', { replace: true });
              },
            })
          }
        >
          <ConfirmText>{t('notificationSettings.alert.deleteText', { name: alert.name })}</ConfirmText>
        </ConfirmDialog>
      )}
    </Stack>
  );
}
