import type { TranslationKey } from '../../../../shared/i18n/keys';
import { Alert, Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../notify';
import type { ExportField, ExportVersion } from '../../api/import-export';
import { EXPORT_FIELDS, EXPORT_VERSIONS, useExportApi, useImportOverApi } from '../../api/import-export';
import type { Api } from '../../api/types';
import { ImportForm } from '../create/import-form';

/**
 * The export dialog: fields to leave out, the target version (the older ones lose data), and the file
 * saved as `{name}-{version}.json`.
 */
export function ExportDialog({ api, opened, onClose }: { api: Api; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const [exclude, setExclude] = useState<ExportField[]>([]);
  const [version, setVersion] = useState<ExportVersion>('current');
  const exporter = useExportApi(api);
  return (
    <Modal opened={opened} onClose={onClose} title={t('apis.export.title')} centered size="lg">
      <Stack gap="md">
        <Checkbox.Group
          label={t('apis.export.exclude')}
          description={t('apis.export.excludeHint')}
          value={exclude}
          onChange={(value) => setExclude(value as ExportField[])}
        >
          <Group mt="xs">
            {EXPORT_FIELDS.map((field) => (
              <Checkbox key={field} value={field} label={t(`apis.export.fields.${field}`)} />
            ))}
          </Group>
        </Checkbox.Group>
        <Radio.Group
          label={t('apis.export.version')}
          value={version}
          onChange={(value) => setVersion(value as ExportVersion)}
        >
          <Stack gap="xs" mt="xs">
            {EXPORT_VERSIONS.map((value) => (
              <Radio
                key={value}
                value={value}
                label={t(`apis.export.versions.${value.replace('.', '_')}` as TranslationKey)}
              />
            ))}
          </Stack>
        </Radio.Group>
        {version === '1.15' && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {t('apis.export.dataLoss')}
          </Alert>
        )}
        <Text size="xs" c="dimmed">
          {t('apis.export.fileName', { file: `${api.name}-${api.version}.json` })}
        </Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {t('apis.confirm.cancel')}
          </Button>
          <Button
            loading={exporter.isPending}
            onClick={() =>
              exporter.mutate(
                { exclude, version },
                {
                  onSuccess: () => {
                    notifySuccess('apis.export.done');
                    onClose();
                  },
                },
              )
            }
          >
            {t('apis.export.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** The import dialog over the API: a file or a URL with the import options; the API keeps its id. */
export function ImportDialog({ api, opened, onClose }: { api: Api; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const importer = useImportOverApi(api.id);
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('apis.import.overTitle', { name: api.name })}
      centered
      size="lg"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {t('apis.import.overHint')}
        </Text>
        <ImportForm
          submitLabel={t('apis.import.submit')}
          pending={importer.isPending}
          onCancel={onClose}
          onImport={(request) =>
            importer.mutate(request, {
              onSuccess: () => {
                notifySuccess('apis.import.updated');
                onClose();
              },
            })
          }
        />
      </Stack>
    </Modal>
  );
}
