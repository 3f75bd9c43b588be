import { Button, Group, NumberInput, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Proxy } from '@portico/model';
import { notifySuccess } from '../../../shared/ui/notify';

/**
 * The API's distributed tracing, next to its logging settings: traced or not (when the gateway traces at
 * all), and its own sampling ratio (0 to 1; empty: the gateway's sampler). Saved with its own button.
 */
export function TracingPanel({
  proxy,
  canUpdate,
  saving,
  onSave,
}: {
  proxy: Proxy;
  canUpdate: boolean;
  saving: boolean;
  onSave: (proxy: Proxy, onSaved: () => void) => void;
}) {
  const { t } = useTranslation();
  const saved = { enabled: proxy.tracing?.enabled ?? true, ratio: proxy.tracing?.sampling_ratio };
  const [enabled, setEnabled] = useState(saved.enabled);
  const [ratio, setRatio] = useState<number | undefined>(saved.ratio);
  const dirty = enabled !== saved.enabled || ratio !== saved.ratio;

  const save = () => {
    const tracing = { enabled, ...(ratio !== undefined ? { sampling_ratio: ratio } : {}) };
    onSave({ ...proxy, tracing }, () => notifySuccess('logs.tracing.saved'));
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="tracing-title">
      <Stack gap="md">
        <Title order={3} id="tracing-title">
          {t('logs.tracing.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('logs.tracing.hint')}
        </Text>
        <Switch
          label={t('logs.tracing.enabled')}
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
          disabled={!canUpdate}
        />
        <NumberInput
          label={t('logs.tracing.ratio')}
          description={t('logs.tracing.ratioHint')}
          value={ratio ?? ''}
          onChange={(value) => setRatio(typeof value === 'number' ? value : undefined)}
          min={0}
          max={1}
          step={0.05}
          decimalScale={4}
          clampBehavior="strict"
          disabled={!enabled || !canUpdate}
          maw={260}
        />
        {canUpdate && (
          <Group justify="flex-end">
            <Button disabled={!dirty} loading={saving} onClick={save}>
              {t('logs.tracing.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
