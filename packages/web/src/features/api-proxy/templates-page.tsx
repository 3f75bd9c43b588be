import {
  ActionIcon,
  Anchor,
  Button,
  Code,
  Group,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
  VisuallyHidden,
} from '@mantine/core';
import { IconEye, IconEyeOff, IconPlus, IconTrash } from '@tabler/icons-react';
import type { ResponseTemplates } from '@portico/model';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { useApiProxy } from './use-proxy';

type Row = { key: string; type: string; status: number; body: string };

const rowsOf = (templates: ResponseTemplates): Row[] =>
  Object.entries(templates)
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([key, byType]) =>
      Object.entries(byType).map(([type, template]) => ({
        key,
        type,
        status: template.status,
        body: template.body,
      })),
    );

/** The templates without one content type of a key; the key goes with its last template. */
function without(templates: ResponseTemplates, key: string, type: string): ResponseTemplates {
  const { [type]: _removed, ...rest } = templates[key] ?? {};
  const { [key]: _key, ...others } = templates;
  return Object.keys(rest).length > 0 ? { ...others, [key]: rest } : others;
}

/**
 * `/responsetemplates` (console-apis.md 2.5): what the gateway answers for an error key, by content type
 * (key, content type, status, body shown on demand), with delete; 'Response templates will appear here'
 * when there is none. Creating needs api-response_templates-c, editing -u, deleting -d.
 */
export function TemplatesPage() {
  const { t } = useTranslation();
  const { apiId, api, base, canUpdate, saveApi, saving } = useApiProxy();
  const permissions = useApiPermissions(apiId);
  const [shown, setShown] = useState<ReadonlySet<string>>(new Set());
  const [deleting, setDeleting] = useState<Row | null>(null);
  const rows = rowsOf(api.response_templates);
  const may = (right: 'c' | 'u' | 'd') => canUpdate && permissions.has(`api-response_templates-${right}`);
  const id = (row: Row) => `${row.key} ${row.type}`;
  const toggle = (row: Row) =>
    setShown((current) => {
      const next = new Set(current);
      if (next.has(id(row))) next.delete(id(row));
      else next.add(id(row));
      return next;
    });

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {t('apiProxy.templates.title')}
          </Title>
          <Text c="dimmed" size="sm">
            {t('apiProxy.templates.description')}
          </Text>
        </Stack>
        {may('c') && (
          <Button
            component={Link}
            to={`${base}/proxy/responsetemplates/new`}
            leftSection={<IconPlus size={16} />}
          >
            {t('apiProxy.templates.add')}
          </Button>
        )}
      </Group>
      <Paper withBorder radius="md">
        {rows.length === 0 ? (
          <Text c="dimmed" ta="center" p="xl">
            {t('apiProxy.templates.empty')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing="sm" highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('apiProxy.templates.key')}</Table.Th>
                  <Table.Th>{t('apiProxy.templates.contentType')}</Table.Th>
                  <Table.Th>{t('apiProxy.templates.status')}</Table.Th>
                  <Table.Th>{t('apiProxy.templates.body')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('apiProxy.endpoints.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => (
                  <Table.Tr key={id(row)}>
                    <Table.Td>
                      {may('u') ? (
                        <Anchor
                          component={Link}
                          to={`${base}/proxy/responsetemplates/${encodeURIComponent(row.key)}`}
                        >
                          {row.key}
                        </Anchor>
                      ) : (
                        row.key
                      )}
                    </Table.Td>
                    <Table.Td>{row.type}</Table.Td>
                    <Table.Td>{row.status}</Table.Td>
                    <Table.Td maw={360}>
                      <Group gap="xs" wrap="nowrap" align="flex-start">
                        <Tooltip
                          label={t(
                            shown.has(id(row))
                              ? 'apiProxy.templates.hideBody'
                              : 'apiProxy.templates.showBody',
                          )}
                        >
                          <ActionIcon
                            variant="subtle"
                            aria-label={t(
                              shown.has(id(row))
                                ? 'apiProxy.templates.hideBody'
                                : 'apiProxy.templates.showBody',
                            )}
                            aria-expanded={shown.has(id(row))}
                            onClick={() => toggle(row)}
                          >
                            {shown.has(id(row)) ? <IconEyeOff size={16} /> : <IconEye size={16} />}
                          </ActionIcon>
                        </Tooltip>
                        {shown.has(id(row)) && (
                          <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                            {row.body || t('apiProxy.templates.noBody')}
                          </Code>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {may('d') && (
                        <Tooltip label={t('apiProxy.templates.delete', { key: row.key, type: row.type })}>
                          <ActionIcon
                            variant="subtle"
                            color="red"
                            aria-label={t('apiProxy.templates.delete', { key: row.key, type: row.type })}
                            onClick={() => setDeleting(row)}
                          >
                            <IconTrash size={16} />
                          </ActionIcon>
                        </Tooltip>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      <ConfirmDialog
        opened={deleting !== null}
        title={t('apiProxy.endpoints.deleteTitle')}
        confirmLabel={t('apiProxy.endpoints.delete')}
        color="red"
        loading={saving}
        onConfirm={() =>
          deleting &&
          saveApi({ response_templates: without(api.response_templates, deleting.key, deleting.type) }, () =>
            setDeleting(null),
          )
        }
        onClose={() => setDeleting(null)}
      >
        {deleting && t('apiProxy.templates.deleteQuestion', { key: deleting.key, type: deleting.type })}
      </ConfirmDialog>
    </Stack>
  );
}
