import { Alert, Button, Group, Paper, Radio, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconAlertTriangle, IconClock, IconWand } from '@tabler/icons-react';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Proxy } from '@portico/model';
import { useConfig } from '../../../shared/config/config-context';
import { notifySuccess } from '../../../shared/ui/notify';
import type { LoggingMode } from '../logging-condition';
import { LOGGING_MODES, conditionEnd } from '../logging-condition';
import type { Option } from './condition-dialog';
import { ConditionDialog } from './condition-dialog';
import { TracingPanel } from './tracing-panel';

/** The platform's maximum logging duration in ms (`logging.maxDurationMillis`, 0 = none). */
function useMaxDuration(): number {
  const config = useConfig() as { logging?: { maxDurationMillis?: number } };
  return config.logging?.maxDurationMillis ?? 0;
}

/**
 * The logging configuration (`/logs/configure`, api-log-u): the mode (None, Client only, Proxy only,
 * Client and proxy), the condition typed or built in the condition editor (mode None disables it), the
 * warnings about what logging costs and when it stops, and Save (disabled while nothing changed). The
 * form starts from `proxy.logging`: the page keys it by the saved logging.
 */
export function LoggingScreen({
  proxy,
  canUpdate,
  saving,
  onSave,
  plans,
  applications,
}: {
  proxy: Proxy;
  canUpdate: boolean;
  saving: boolean;
  onSave: (proxy: Proxy, onSaved: () => void) => void;
  plans: Option[];
  applications: Option[];
}) {
  const { t } = useTranslation();
  const maxDuration = useMaxDuration();
  const saved = {
    mode: (proxy.logging?.mode ?? 'NONE') as LoggingMode,
    condition: proxy.logging?.condition ?? '',
  };
  const [mode, setMode] = useState<LoggingMode>(saved.mode);
  const [condition, setCondition] = useState(saved.condition);
  const [builder, setBuilder] = useState(false);
  const dirty = mode !== saved.mode || condition !== saved.condition;
  const off = mode === 'NONE';
  const end = conditionEnd(condition);
  const [now] = useState(() => Date.now());

  const save = () => {
    const logging = { mode, ...(condition.trim() ? { condition: condition.trim() } : {}) };
    onSave({ ...proxy, logging }, () => notifySuccess('logs.logging.saved'));
  };

  return (
    <Stack gap="lg">
      <Title order={2}>{t('logs.logging.title')}</Title>
      {!canUpdate && <Alert color="gray">{t('logs.logging.readOnly')}</Alert>}
      <Alert color="orange" icon={<IconAlertTriangle size={18} />} title={t('logs.logging.warningTitle')}>
        {t('logs.logging.warning')}
      </Alert>
      <Paper withBorder radius="md" p="lg">
        <Stack gap="lg">
          <Radio.Group
            label={t('logs.logging.mode')}
            value={mode}
            onChange={(value) => setMode(value as LoggingMode)}
          >
            <Stack gap="sm" mt="xs">
              {LOGGING_MODES.map((m) => (
                <Radio
                  key={m}
                  value={m}
                  label={t(`logs.logging.modes.${m}`)}
                  description={t(`logs.logging.modeHints.${m}`)}
                  disabled={!canUpdate}
                />
              ))}
            </Stack>
          </Radio.Group>
          <Stack gap="xs">
            <Textarea
              label={t('logs.logging.condition')}
              description={t(off ? 'logs.logging.conditionDisabled' : 'logs.logging.conditionHint')}
              value={condition}
              onChange={(e) => setCondition(e.currentTarget.value)}
              disabled={off || !canUpdate}
              autosize
              minRows={2}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            <Group>
              <Button
                variant="light"
                leftSection={<IconWand size={16} />}
                disabled={off || !canUpdate}
                onClick={() => setBuilder(true)}
              >
                {t('logs.logging.openBuilder')}
              </Button>
              {condition && !off && canUpdate && (
                <Button variant="subtle" color="gray" onClick={() => setCondition('')}>
                  {t('logs.logging.clearCondition')}
                </Button>
              )}
            </Group>
          </Stack>
          {!off && end !== undefined && (
            <Alert
              color={end < now ? 'red' : 'blue'}
              icon={<IconClock size={18} />}
              role={end < now ? 'alert' : undefined}
            >
              {end < now
                ? t('logs.logging.ended', { date: dayjs(end).format('YYYY-MM-DD HH:mm') })
                : t('logs.logging.endsAt', { date: dayjs(end).format('YYYY-MM-DD HH:mm') })}
            </Alert>
          )}
          {!off && maxDuration > 0 && (
            <Text size="sm" c="dimmed">
              {t('logs.logging.maxDuration', { minutes: Math.round(maxDuration / 60_000) })}
            </Text>
          )}
          {canUpdate && (
            <Group justify="flex-end">
              <Button
                variant="default"
                disabled={!dirty}
                onClick={() => {
                  setMode(saved.mode);
                  setCondition(saved.condition);
                }}
              >
                {t('common.reset')}
              </Button>
              <Button disabled={!dirty} loading={saving} onClick={save}>
                {t('common.save')}
              </Button>
            </Group>
          )}
        </Stack>
      </Paper>
      <TracingPanel proxy={proxy} canUpdate={canUpdate} saving={saving} onSave={onSave} />
      {builder && (
        <ConditionDialog
          opened
          onClose={() => setBuilder(false)}
          onSave={setCondition}
          plans={plans}
          applications={applications}
        />
      )}
    </Stack>
  );
}
