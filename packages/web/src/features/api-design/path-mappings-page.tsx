import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconFileImport, IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../shared/ui/notify';
import { usePages } from '../pages/api/pages';
import type { PathProblem } from './design-model';
import { pathProblem } from './design-model';
import { useApiDesign, useImportPathMappings } from './use-design';

const PROBLEMS = {
  required: 'apiDesign.mappings.required',
  slash: 'apiDesign.mappings.slash',
  duplicate: 'apiDesign.mappings.duplicate',
} as const satisfies Record<PathProblem, string>;

/**
 * `/path-mappings` (console-apis.md 2.6, 5): the paths analytics group calls by (parameters marked with
 * a colon); add, delete, and import those of one of the API's Swagger pages.
 */
export function PathMappingsPage() {
  const { t } = useTranslation();
  const { api, apiId, canUpdate, saving, save } = useApiDesign();
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const mappings = api.path_mappings;
  const persist = (next: string[], onSaved?: () => void) =>
    save({ path_mappings: next }, 'apiDesign.mappings.saved', () => onSaved?.());

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2}>{t('apiDesign.mappings.title')}</Title>
        {canUpdate && (
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconFileImport size={16} />}
              onClick={() => setImporting(true)}
            >
              {t('apiDesign.mappings.import')}
            </Button>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              {t('apiDesign.mappings.add')}
            </Button>
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed">
        {t('apiDesign.mappings.hint')}
      </Text>
      <Paper withBorder radius="md">
        {mappings.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            {t('apiDesign.mappings.empty')}
          </Text>
        ) : (
          <Table verticalSpacing="sm" horizontalSpacing="md">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('apiDesign.mappings.path')}</Table.Th>
                {canUpdate && <Table.Th w={60}>{t('apiDesign.actions')}</Table.Th>}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {mappings.map((mapping) => (
                <Table.Tr key={mapping}>
                  <Table.Td ff="monospace">{mapping}</Table.Td>
                  {canUpdate && (
                    <Table.Td>
                      <Tooltip label={t('apiDesign.mappings.remove', { path: mapping })}>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          disabled={saving}
                          aria-label={t('apiDesign.mappings.remove', { path: mapping })}
                          onClick={() => persist(mappings.filter((m) => m !== mapping))}
                        >
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Paper>
      {adding && (
        <AddMappingDialog
          existing={mappings}
          saving={saving}
          onClose={() => setAdding(false)}
          onAdd={(mapping) => persist([...mappings, mapping], () => setAdding(false))}
        />
      )}
      {importing && <ImportMappingsDialog apiId={apiId} onClose={() => setImporting(false)} />}
    </Stack>
  );
}

function AddMappingDialog({
  existing,
  saving,
  onAdd,
  onClose,
}: {
  existing: string[];
  saving: boolean;
  onAdd: (mapping: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [mapping, setMapping] = useState('/');
  const [touched, setTouched] = useState(false);
  const problem = pathProblem(existing, mapping);
  return (
    <ConfirmDialog
      opened
      title={t('apiDesign.mappings.addTitle')}
      confirmLabel={t('apiDesign.mappings.add')}
      confirmDisabled={!!problem}
      loading={saving}
      onClose={onClose}
      onConfirm={() => onAdd(mapping.trim())}
    >
      <TextInput
        label={t('apiDesign.mappings.path')}
        withAsterisk
        description={t('apiDesign.mappings.pathHint')}
        value={mapping}
        onChange={(e) => {
          setMapping(e.currentTarget.value);
          setTouched(true);
        }}
        error={touched && problem ? t(PROBLEMS[problem]) : undefined}
        data-autofocus
      />
    </ConfirmDialog>
  );
}

function ImportMappingsDialog({ apiId, onClose }: { apiId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const pages = usePages(apiId);
  const importing = useImportPathMappings(apiId);
  const [page, setPage] = useState<string | null>(null);
  const swaggers = (pages.data ?? []).filter((p) => p.type === 'SWAGGER');
  return (
    <ConfirmDialog
      opened
      title={t('apiDesign.mappings.importTitle')}
      confirmLabel={t('apiDesign.mappings.importConfirm')}
      confirmDisabled={!page}
      loading={importing.isPending}
      onClose={onClose}
      onConfirm={() =>
        importing.mutate(page!, {
          onSuccess: () => {
            notifySuccess('apiDesign.mappings.imported');
            onClose();
          },
        })
      }
    >
      <Select
        label={t('apiDesign.mappings.swagger')}
        withAsterisk
        placeholder={swaggers.length === 0 ? t('apiDesign.mappings.noSwagger') : undefined}
        data={swaggers.map((p) => ({ value: p.id, label: p.name }))}
        value={page}
        onChange={setPage}
        disabled={swaggers.length === 0}
        data-autofocus
      />
    </ConfirmDialog>
  );
}
