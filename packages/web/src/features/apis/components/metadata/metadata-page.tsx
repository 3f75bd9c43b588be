import {
  ActionIcon,
  Badge,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Modal,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { IconPencil, IconPlus, IconTags, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { notifySuccess } from '../../notify';
import { translatedInput } from '../../../../shared/ui/translated-input';
import { useApiMetadata, useDeleteMetadata, useSaveMetadata } from '../../api/metadata';
import type { ApiMetadata, MetadataFormat } from '../../api/types';
import { metadataSchema } from '../../rules';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import { DialogForm } from '../../../../shared/ui/dialog-form';

const FORMATS: MetadataFormat[] = ['STRING', 'NUMERIC', 'BOOLEAN', 'DATE', 'MAIL', 'URL'];

/** management.apis.detail.metadata (`/metadata`): key, name, format, value and default value. */
export function MetadataPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const permissions = useApiPermissions(apiId);
  const metadata = useApiMetadata(apiId);
  const remove = useDeleteMetadata(apiId);
  const [editing, setEditing] = useState<ApiMetadata | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ApiMetadata | null>(null);
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {t('apis.metadata.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('apis.metadata.hint')}
          </Text>
        </div>
        {permissions.has('api-metadata-c') && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('apis.metadata.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {metadata.isPending ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : (metadata.data ?? []).length === 0 ? (
          <EmptyState
            py={48}
            variant="light"
            icon={<IconTags size={32} />}
            title={t('apis.metadata.empty')}
          />
        ) : (
          <Table verticalSpacing="sm">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apis.metadata.columns.key')}</Table.Th>
                <Table.Th>{t('apis.metadata.columns.name')}</Table.Th>
                <Table.Th>{t('apis.metadata.columns.format')}</Table.Th>
                <Table.Th>{t('apis.metadata.columns.value')}</Table.Th>
                <Table.Th>{t('apis.metadata.columns.defaultValue')}</Table.Th>
                <Table.Th w={90} />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(metadata.data ?? []).map((m) => (
                <Table.Tr key={m.key}>
                  <Table.Td ff="monospace">{m.key}</Table.Td>
                  <Table.Td>{m.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray">
                      {t(`apis.metadata.formats.${m.format}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{m.value ?? ''}</Table.Td>
                  <Table.Td c="dimmed">{m.defaultValue ?? ''}</Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      {permissions.has('api-metadata-u') && (
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('apis.metadata.edit', { name: m.name })}
                          onClick={() => setEditing(m)}
                        >
                          <IconPencil size={18} />
                        </ActionIcon>
                      )}
                      {permissions.has('api-metadata-d') && m.value !== null && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('apis.metadata.delete', { name: m.name })}
                          onClick={() => setDeleting(m)}
                        >
                          <IconTrash size={18} />
                        </ActionIcon>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {editing !== null && (
        <MetadataDialog
          apiId={apiId}
          metadata={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('apis.metadata.deleteTitle')}
        confirmLabel={t('apis.metadata.deleteConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting &&
          remove.mutate(deleting.key, {
            onSuccess: () => {
              notifySuccess('apis.metadata.deleted', { name: deleting.name });
              setDeleting(null);
            },
          })
        }
      >
        <ConfirmText>{deleting && t('apis.metadata.deleteQuestion', { name: deleting.name })}</ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}

function MetadataDialog({
  apiId,
  metadata,
  onClose,
}: {
  apiId: string;
  metadata: ApiMetadata | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveMetadata(apiId);
  const form = useForm({
    initialValues: {
      name: metadata?.name ?? '',
      format: metadata?.format ?? 'STRING',
      value: metadata?.value ?? metadata?.defaultValue ?? '',
    },
    validate: schemaResolver(metadataSchema, { sync: true }),
    validateInputOnChange: true,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={metadata ? t('apis.metadata.editTitle') : t('apis.metadata.addTitle')}
      centered
    >
      <DialogForm
        noValidate
        onSubmit={form.onSubmit((values) =>
          save.mutate(
            {
              key: metadata?.key,
              input: {
                name: values.name.trim(),
                format: values.format as MetadataFormat,
                value: values.value.trim(),
              },
            },
            {
              onSuccess: () => {
                notifySuccess('apis.metadata.saved', { name: values.name.trim() });
                onClose();
              },
            },
          ),
        )}
      >
        <Stack gap="md">
          <TextInput
            label={t('apis.metadata.columns.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <Select
            label={t('apis.metadata.columns.format')}
            data={FORMATS.map((f) => ({ value: f, label: t(`apis.metadata.formats.${f}`) }))}
            allowDeselect={false}
            {...form.getInputProps('format')}
            onChange={(value) => {
              form.setFieldValue('format', (value ?? 'STRING') as MetadataFormat);
              form.validateField('value');
            }}
          />
          <TextInput
            label={t('apis.metadata.columns.value')}
            description={t('apis.metadata.valueHint')}
            {...translatedInput(form.getInputProps('value'), t)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('apis.confirm.cancel')}
            </Button>
            <Button
              type="submit"
              loading={save.isPending}
              disabled={!form.isValid() || (metadata !== undefined && !form.isDirty())}
            >
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
