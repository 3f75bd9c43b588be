import { Button, Group, Loader, Modal, Select, Stack, Switch, TextInput } from '@mantine/core';
import type { Resource } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { JsonObject } from '../../shared/ui/json-schema-form';
import { JsonSchemaForm, isValid, withDefaults } from '../../shared/ui/json-schema-form';
import type { ResourceType } from './use-design';
import { useResourceSchema } from './use-design';
import { DialogForm } from '../../shared/ui/dialog-form';

/**
 * A resource's editor (console-apis.md 2.6, 5): name and type required, the name unique among the API's
 * resources, the configuration valid for the type's schema; the enabled toggle only when editing.
 */
export function ResourceDialog({
  resource,
  otherNames,
  types,
  saving,
  onSave,
  onClose,
}: {
  resource: Resource | undefined;
  otherNames: string[];
  types: ResourceType[];
  saving: boolean;
  onSave: (resource: Resource) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(resource?.name ?? '');
  const [type, setType] = useState<string | null>(resource?.type ?? null);
  const [enabled, setEnabled] = useState(resource?.enabled ?? true);
  const [configuration, setConfiguration] = useState<JsonObject | undefined>(
    resource ? ((resource.configuration ?? {}) as JsonObject) : undefined,
  );
  const [showErrors, setShowErrors] = useState(false);
  const schema = useResourceSchema(type);
  const value =
    configuration ?? (schema.data ? (withDefaults(schema.data, {}) as JsonObject) : ({} as JsonObject));
  const nameProblem = !name.trim()
    ? t('apiDesign.resources.nameRequired')
    : otherNames.includes(name.trim())
      ? t('apiDesign.resources.nameTaken')
      : undefined;
  const valid = !nameProblem && !!type && !!schema.data && isValid(schema.data, value);
  return (
    <Modal
      opened
      size="lg"
      onClose={onClose}
      title={
        resource
          ? t('apiDesign.resources.editTitle', { name: resource.name })
          : t('apiDesign.resources.addTitle')
      }
      closeButtonProps={{ 'aria-label': t('common.closeDialog') }}
    >
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          setShowErrors(true);
          if (valid) onSave({ name: name.trim(), type: type!, enabled, configuration: value });
        }}
      >
        <Stack gap="md">
          <TextInput
            label={t('apiDesign.resources.name')}
            withAsterisk
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={showErrors || name ? nameProblem : undefined}
            data-autofocus
          />
          <Select
            label={t('apiDesign.resources.type')}
            withAsterisk
            data={types.map((tp) => ({ value: tp.id, label: tp.name }))}
            value={type}
            disabled={!!resource}
            allowDeselect={false}
            onChange={(next) => {
              setType(next);
              setConfiguration(undefined);
            }}
            error={showErrors && !type ? t('apiDesign.resources.typeRequired') : undefined}
            description={types.find((tp) => tp.id === type)?.description}
          />
          {resource && (
            <Switch
              label={t('apiDesign.resources.enabled')}
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
            />
          )}
          {type && !schema.data && schema.isLoading && <Loader size="sm" />}
          {type && schema.data && (
            <JsonSchemaForm
              schema={schema.data}
              value={value}
              onChange={setConfiguration}
              showErrors={showErrors}
              idPrefix="resource"
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={saving}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
