import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { notifySuccess } from '../../../shared/ui/notify';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { ApiHeader } from '../api/catalogue';
import { useSaveApiHeader } from '../api/catalogue';
import { DialogForm } from '../../../shared/ui/dialog-form';

const headerSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'settingsApiHeaders.errors.nameRequired')
    .max(128, 'settingsApiHeaders.errors.tooLong'),
  value: z
    .string()
    .trim()
    .min(1, 'settingsApiHeaders.errors.valueRequired')
    .max(1000, 'settingsApiHeaders.errors.tooLong'),
});

/** Creates a header (at the end) or edits one; values may hold `${api.version}` and the like. */
export function ApiHeaderDialog({ header, onClose }: { header: ApiHeader | undefined; onClose: () => void }) {
  const { t } = useTranslation();
  const save = useSaveApiHeader();
  const form = useForm({
    initialValues: { name: header?.name ?? '', value: header?.value ?? '' },
    validate: schemaResolver(headerSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={header ? t('settingsApiHeaders.editTitle') : t('settingsApiHeaders.addTitle')}
      centered
    >
      <DialogForm
        noValidate
        onSubmit={form.onSubmit((values) =>
          save.mutate(
            { id: header?.id, name: values.name.trim(), value: values.value.trim(), order: header?.order },
            {
              onSuccess: () => {
                notifySuccess('settingsApiHeaders.saved', { name: values.name.trim() });
                onClose();
              },
            },
          ),
        )}
      >
        <Stack gap="md">
          <TextInput
            label={t('settingsApiHeaders.columns.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <TextInput
            label={t('settingsApiHeaders.columns.value')}
            description={t('settingsApiHeaders.valueHint')}
            withAsterisk
            {...translatedInput(form.getInputProps('value'), t)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!form.isValid() || (header !== undefined && !form.isDirty())}
            >
              {header ? t('common.save') : t('settingsApiHeaders.addConfirm')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
