import { Button, Group, Modal, Select, Stack, Text, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { METADATA_FORMATS, metadataValueError } from '@portico/model';
import type { MetadataFormat } from '@portico/model';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { Metadata } from '../api/catalogue';
import { useSaveGlobalMetadata } from '../api/catalogue';
import { DialogForm } from '../../../shared/ui/dialog-form';

/** Section 5: the value must fit the format (or be an expression `${...}`). */
const metadataSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, 'settingsMetadata.errors.nameRequired')
      .max(64, 'settingsMetadata.errors.nameTooLong'),
    format: z.enum(METADATA_FORMATS),
    value: z.string(),
  })
  .superRefine((m, ctx) => {
    if (metadataValueError(m.format, m.value.trim()))
      ctx.addIssue({ code: 'custom', path: ['value'], message: `settingsMetadata.errors.${m.format}` });
  });

/** Adds a global metadata (its key comes from the name) or edits one. */
export function MetadataDialog({
  metadata,
  onClose,
}: {
  metadata: Metadata | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveGlobalMetadata();
  const form = useForm({
    initialValues: {
      name: metadata?.name ?? '',
      format: (metadata?.format.toUpperCase() ?? 'STRING') as MetadataFormat,
      value: metadata?.defaultValue ?? '',
    },
    validate: schemaResolver(metadataSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={metadata ? t('settingsMetadata.editTitle') : t('settingsMetadata.addTitle')}
      centered
    >
      <DialogForm
        noValidate
        onSubmit={form.onSubmit((values) =>
          save.mutate(
            {
              key: metadata?.key,
              name: values.name.trim(),
              format: values.format.toLowerCase(),
              value: values.value.trim(),
            },
            {
              onSuccess: (saved) => {
                notifySuccess('settingsMetadata.saved', { name: saved.name });
                onClose();
              },
            },
          ),
        )}
      >
        <Stack gap="md">
          {metadata && (
            <Text size="sm" c="dimmed">
              {t('settingsMetadata.keyIs', { key: metadata.key })}
            </Text>
          )}
          <TextInput
            label={t('settingsMetadata.columns.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <Select
            label={t('settingsMetadata.columns.format')}
            data={METADATA_FORMATS.map((f) => ({ value: f, label: t(`settingsMetadata.formats.${f}`) }))}
            allowDeselect={false}
            {...form.getInputProps('format')}
            onChange={(value) => {
              form.setFieldValue('format', (value ?? 'STRING') as MetadataFormat);
              form.validateField('value');
            }}
          />
          <TextInput
            label={t('settingsMetadata.columns.defaultValue')}
            description={t('settingsMetadata.valueHint')}
            {...translatedInput(form.getInputProps('value'), t)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!form.isValid() || (metadata !== undefined && !form.isDirty())}
            >
              {metadata ? t('common.save') : t('settingsMetadata.addConfirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
