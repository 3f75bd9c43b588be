import { MultiSelect, NumberInput, SimpleGrid, Switch, TagsInput } from '@mantine/core';
import { HTTP_METHODS } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import type { CorsValues } from './settings-model';
import { DEFAULT_CORS, corsProblems } from './settings-model';
import { SettingsFrame, problemText } from './settings-frame';
import { useApiProxy } from './use-proxy';

/**
 * `/cors` (console-apis.md 2.5): cross-origin resource sharing answered by the gateway itself. Defaults
 * of section 9 (origin '*', max age -1, no credentials); adding '*' asks 'Are you sure you want to remove
 * all cross-origin restrictions?' and declining removes it; origins are origins or regular expressions.
 */
export function CorsPage() {
  const { t } = useTranslation();
  const { proxy, canUpdate, save, saving } = useApiProxy();
  const initial: CorsValues = { ...DEFAULT_CORS, ...proxy.cors };
  const [cors, setCors] = useState<CorsValues>(initial);
  const [askAll, setAskAll] = useState(false);
  const problems = corsProblems(cors);
  const readOnly = !canUpdate;
  const set = (change: Partial<CorsValues>) => setCors({ ...cors, ...change });
  const error = (field: string) => problemText(t, problems[field]);
  const dirty = JSON.stringify(cors) !== JSON.stringify(initial);

  return (
    <SettingsFrame
      title={t('apiProxy.cors.title')}
      description={t('apiProxy.cors.description')}
      readOnly={readOnly}
      dirty={dirty}
      valid={Object.keys(problems).length === 0}
      saving={saving}
      onReset={() => setCors(initial)}
      onSave={() => save({ ...proxy, cors: { ...cors, maxAge: cors.maxAge ?? -1 } })}
    >
      <Switch
        label={t('apiProxy.cors.enabled')}
        disabled={readOnly}
        checked={cors.enabled}
        onChange={(e) => set({ enabled: e.currentTarget.checked })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <TagsInput
          label={t('apis.general.cors.allowOrigin')}
          description={t('apiProxy.cors.originHint')}
          withAsterisk={cors.enabled}
          disabled={!cors.enabled}
          readOnly={readOnly}
          value={cors.allowOrigin}
          error={error('allowOrigin')}
          onChange={(allowOrigin) => {
            if (allowOrigin.includes('*') && !cors.allowOrigin.includes('*')) setAskAll(true);
            set({ allowOrigin });
          }}
        />
        <MultiSelect
          label={t('apis.general.cors.allowMethods')}
          withAsterisk={cors.enabled}
          disabled={!cors.enabled}
          readOnly={readOnly}
          data={[...HTTP_METHODS]}
          searchable
          value={cors.allowMethods}
          error={error('allowMethods')}
          onChange={(allowMethods) => set({ allowMethods })}
        />
        <TagsInput
          label={t('apis.general.cors.allowHeaders')}
          description={t('apiProxy.cors.headersHint')}
          disabled={!cors.enabled}
          readOnly={readOnly}
          value={cors.allowHeaders}
          onChange={(allowHeaders) => set({ allowHeaders })}
        />
        <TagsInput
          label={t('apis.general.cors.exposeHeaders')}
          description={t('apiProxy.cors.headersHint')}
          disabled={!cors.enabled}
          readOnly={readOnly}
          value={cors.exposeHeaders}
          onChange={(exposeHeaders) => set({ exposeHeaders })}
        />
        <NumberInput
          label={t('apis.general.cors.maxAge')}
          description={t('apis.general.cors.maxAgeHint')}
          withAsterisk={cors.enabled}
          disabled={!cors.enabled}
          readOnly={readOnly}
          allowDecimal={false}
          min={-1}
          clampBehavior="none"
          value={cors.maxAge ?? ''}
          error={error('maxAge')}
          onChange={(v) => set({ maxAge: typeof v === 'number' ? v : undefined })}
        />
        <Switch
          mt="xl"
          label={t('apis.general.cors.allowCredentials')}
          disabled={readOnly || !cors.enabled}
          checked={cors.allowCredentials}
          onChange={(e) => set({ allowCredentials: e.currentTarget.checked })}
        />
      </SimpleGrid>
      <ConfirmDialog
        opened={askAll}
        title={t('apis.general.cors.allOriginsTitle')}
        confirmLabel={t('apis.general.cors.allOriginsConfirm')}
        color="red"
        onConfirm={() => setAskAll(false)}
        onClose={() => {
          setAskAll(false);
          setCors((current) => ({ ...current, allowOrigin: current.allowOrigin.filter((o) => o !== '*') }));
        }}
      >
        {t('apis.general.cors.allOriginsQuestion')}
      </ConfirmDialog>
    </SettingsFrame>
  );
}
