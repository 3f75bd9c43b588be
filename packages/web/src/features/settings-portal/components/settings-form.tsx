import { Button, Group, NumberInput, Paper, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SettingsTree } from '@portico/model';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { useSession } from '../../../shared/session/current-user';
import { hasAnyPermission } from '../../../shared/session/permissions';
import { notifySuccess } from '../../../shared/ui/notify';
import { usePortalSettings, useSavePortalSettings } from '../api/portal-settings';
import type { FormValue, FormValues, SettingField, SettingSection } from '../settings-fields';
import { changesPayload, fieldId, typeOf, validateFields, valuesFrom } from '../settings-fields';

interface SettingsScreenProps {
  /** Under `settingsPortal.titles`. */
  title: 'portal' | 'analytics' | 'apiLogging';
  sections: readonly SettingSection[];
}

/**
 * A settings screen: its sections of fields over `GET portal`, saved with `POST portal` carrying the
 * changed fields only. Save is disabled while nothing changed or a field is invalid; Reset restores
 * the loaded values. Without portal-settings-u or -c the fields are read-only.
 */
export function SettingsScreen({ title, sections }: SettingsScreenProps) {
  const settings = usePortalSettings();
  if (!settings.data) return null;
  return (
    <SettingsForm
      key={JSON.stringify(settings.data)}
      title={title}
      sections={sections}
      tree={settings.data}
    />
  );
}

function SettingsForm({ title, sections, tree }: SettingsScreenProps & { tree: SettingsTree }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const save = useSavePortalSettings();
  const editable = hasAnyPermission(user, ['portal-settings-u', 'portal-settings-c']);
  const initial = useMemo(() => valuesFrom(tree, sections), [tree, sections]);
  const [values, setValues] = useState<FormValues>(initial);
  const errors = validateFields(values, sections);
  const changes = changesPayload(initial, values);
  const dirty = Object.keys(changes).length > 0;
  const valid = Object.keys(errors).length === 0;
  const set = (key: string, value: FormValue) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!dirty || !valid) return;
    save.mutate(changes, { onSuccess: () => notifySuccess('settingsPortal.saved') });
  };

  const errorOf = (key: string) => {
    const error = errors[key];
    return error
      ? t(`settingsPortal.validation.${error.key}` as TranslationKey, { min: error.min })
      : undefined;
  };

  const renderField = (field: SettingField) => {
    const label = t(`settingsPortal.fields.${fieldId(field.key)}` as TranslationKey);
    const disabled = !editable || (field.dependsOn !== undefined && values[field.dependsOn] === false);
    const value = values[field.key];
    const type = typeOf(field.key);
    const unit = field.unit ? t(`settingsPortal.units.${field.unit}` as TranslationKey) : undefined;
    if (type === 'boolean')
      return (
        <Switch
          key={field.key}
          label={label}
          checked={value === true}
          disabled={disabled}
          onChange={(e) => set(field.key, e.currentTarget.checked)}
        />
      );
    if (type === 'number')
      return (
        <NumberInput
          key={field.key}
          label={label}
          description={unit}
          value={value as number | string}
          allowDecimal={false}
          disabled={disabled}
          error={errorOf(field.key)}
          onChange={(v) => set(field.key, v)}
          maw={320}
        />
      );
    return (
      <TextInput
        key={field.key}
        label={label}
        value={String(value)}
        disabled={disabled}
        error={errorOf(field.key)}
        onChange={(e) => set(field.key, e.currentTarget.value)}
      />
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        <Title order={2} size="h3">
          {t(`settingsPortal.titles.${title}`)}
        </Title>
        {!editable && (
          <Text size="sm" c="dimmed">
            {t('settingsPortal.readOnly')}
          </Text>
        )}
        {sections.map((section) => (
          <Paper key={section.id} withBorder p="md" component="section" aria-labelledby={`s-${section.id}`}>
            <Stack gap="sm">
              <Title order={3} size="h5" id={`s-${section.id}`}>
                {t(`settingsPortal.sections.${section.id}` as TranslationKey)}
              </Title>
              {section.fields.map(renderField)}
            </Stack>
          </Paper>
        ))}
        {editable && (
          <Group>
            <Button type="submit" disabled={!dirty || !valid} loading={save.isPending}>
              {t('common.save')}
            </Button>
            <Button variant="default" disabled={!dirty} onClick={() => setValues(initial)}>
              {t('common.reset')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
