import { Checkbox, NumberInput, SimpleGrid, Switch } from '@mantine/core';
import type { Failover } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FailoverValues } from './settings-model';
import { failoverOf, failoverProblems, failoverValues } from './settings-model';
import { SettingsFrame, problemText } from './settings-frame';
import { useApiProxy } from './use-proxy';

/**
 * `/failover` (console-apis.md 2.5): when the backend does not answer in time, the gateway tries another
 * endpoint, up to the max attempts, each within the retry timeout. The switch shows or hides the fields.
 */
export function FailoverPage() {
  const { t } = useTranslation();
  const { proxy, canUpdate, save, saving } = useApiProxy();
  const initial = failoverValues(proxy.failover);
  const [values, setValues] = useState<FailoverValues>(initial);
  const problems = failoverProblems(values);
  const readOnly = !canUpdate;
  const set = (change: Partial<FailoverValues>) => setValues({ ...values, ...change });
  const number = (key: 'maxAttempts' | 'retryTimeout') => (
    <NumberInput
      label={t(`apiProxy.failover.${key}`)}
      description={t(`apiProxy.failover.${key}Hint`)}
      withAsterisk
      readOnly={readOnly}
      allowDecimal={false}
      min={1}
      clampBehavior="none"
      value={values[key] ?? ''}
      error={problemText(t, problems[key])}
      onChange={(v) => set({ [key]: typeof v === 'number' ? v : undefined })}
    />
  );

  return (
    <SettingsFrame
      title={t('apiProxy.failover.title')}
      description={t('apiProxy.failover.description')}
      readOnly={readOnly}
      dirty={JSON.stringify(values) !== JSON.stringify(initial)}
      valid={Object.keys(problems).length === 0}
      saving={saving}
      onReset={() => setValues(initial)}
      onSave={() => {
        const { failover: _dropped, ...rest } = proxy;
        const failover = failoverOf(values);
        save(failover ? { ...rest, failover } : rest);
      }}
    >
      <Switch
        label={t('apiProxy.failover.enabled')}
        disabled={readOnly}
        checked={values.enabled}
        onChange={(e) => set({ enabled: e.currentTarget.checked })}
      />
      {values.enabled && (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {number('maxAttempts')}
            {number('retryTimeout')}
          </SimpleGrid>
          <Checkbox.Group
            label={t('apiProxy.failover.cases')}
            value={values.cases}
            onChange={(cases) => set({ cases: cases as Failover['cases'] })}
          >
            <Checkbox mt="xs" value="TIMEOUT" label={t('apiProxy.failover.TIMEOUT')} disabled={readOnly} />
          </Checkbox.Group>
        </>
      )}
    </SettingsFrame>
  );
}
