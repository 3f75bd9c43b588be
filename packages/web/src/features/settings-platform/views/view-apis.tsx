import { ActionIcon, Checkbox, EmptyState, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { IconApi, IconUnlink } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ApiAutocomplete } from '../api-autocomplete';
import type { ApiSummary } from '../api/views';

/**
 * The APIs of a view (2.3): an autocomplete attaches one, the table shows name, version, context path,
 * the highlighted API (one at most) and detaches. Changes go to the form; Save keeps them.
 */
export function ViewApis({
  apis,
  highlightApi,
  editable,
  onChange,
  onHighlight,
}: {
  apis: ApiSummary[];
  highlightApi: string | null;
  editable: boolean;
  onChange: (apis: ApiSummary[]) => void;
  onHighlight: (id: string | null) => void;
}) {
  const { t } = useTranslation();
  return (
    <Paper withBorder radius="md" p="md">
      <Stack gap="sm">
        <div>
          <Title order={3} size="h4">
            {t('settingsViews.apis.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('settingsViews.apis.hint')}
          </Text>
        </div>
        {editable && (
          <ApiAutocomplete
            label={t('settingsViews.apis.attach')}
            excluded={new Set(apis.map((a) => a.id))}
            onPick={(api) => onChange([...apis, api])}
          />
        )}
        {apis.length === 0 ? (
          <EmptyState
            py={32}
            variant="light"
            icon={<IconApi size={28} />}
            title={t('settingsViews.apis.empty')}
          />
        ) : (
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settingsViews.apis.name')}</Table.Th>
                  <Table.Th>{t('settingsViews.apis.version')}</Table.Th>
                  <Table.Th>{t('settingsViews.apis.contextPath')}</Table.Th>
                  <Table.Th ta="center">{t('settingsViews.apis.highlight')}</Table.Th>
                  <Table.Th w={56}>{editable ? t('settingsViews.apis.detachColumn') : ''}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {apis.map((api) => (
                  <Table.Tr key={api.id}>
                    <Table.Td fw={500}>{api.name}</Table.Td>
                    <Table.Td>{api.version}</Table.Td>
                    <Table.Td ff="monospace" fz="sm">
                      {api.context_path}
                    </Table.Td>
                    <Table.Td>
                      <Checkbox
                        mx="auto"
                        w="fit-content"
                        aria-label={t('settingsViews.apis.highlightOf', { name: api.name })}
                        checked={highlightApi === api.id}
                        disabled={!editable}
                        onChange={(e) => onHighlight(e.currentTarget.checked ? api.id : null)}
                      />
                    </Table.Td>
                    <Table.Td>
                      {editable && (
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('settingsViews.apis.detach', { name: api.name })}
                          onClick={() => {
                            onChange(apis.filter((a) => a.id !== api.id));
                            if (highlightApi === api.id) onHighlight(null);
                          }}
                        >
                          <IconUnlink size={18} />
                        </ActionIcon>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Paper>
  );
}
