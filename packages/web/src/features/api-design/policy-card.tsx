import {
  ActionIcon,
  Badge,
  Button,
  Collapse,
  Group,
  MultiSelect,
  Paper,
  Stack,
  Switch,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import {
  IconArrowDown,
  IconArrowUp,
  IconChevronDown,
  IconChevronRight,
  IconTrash,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import { JsonSchemaForm, isValid } from '../../shared/ui/json-schema-form';
import type { PolicyDescription } from '../plans/api/types';
import type { PolicyEntry } from './design-model';
import { POLICY_DESCRIPTION_MAX, POLICY_METHODS } from './design-model';

/**
 * One policy of a path: its methods, enabled toggle (saved at once), description dialog, move buttons
 * (the keyboard's way to reorder), removal, and its configuration form generated from its JSON schema.
 */
export function PolicyCard({
  entry,
  index,
  count,
  policy,
  readOnly,
  showErrors,
  handle,
  onChange,
  onToggle,
  onMove,
  onRemove,
}: {
  entry: PolicyEntry;
  index: number;
  count: number;
  policy: PolicyDescription | undefined;
  readOnly: boolean;
  showErrors: boolean;
  handle: ReactNode;
  onChange: (entry: PolicyEntry) => void;
  onToggle: (enabled: boolean) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [describing, setDescribing] = useState(false);
  const [description, setDescription] = useState(entry.description);
  const name = policy?.name ?? entry.policy;
  const invalid = !!policy && !isValid(policy.schema, entry.configuration);
  const panelId = `design-config-${entry.key}`;
  const descriptionProblem = !description.trim()
    ? t('apiDesign.policies.descriptionRequired')
    : description.length > POLICY_DESCRIPTION_MAX
      ? t('apiDesign.policies.descriptionTooLong', { max: POLICY_DESCRIPTION_MAX })
      : undefined;
  return (
    <Paper withBorder radius="md" p="sm" opacity={entry.enabled ? 1 : 0.85} data-policy={entry.policy}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Group gap="xs" wrap="nowrap" align="flex-start">
            {handle}
            <Badge variant="light" color="gray" mt={4} miw="var(--badge-height)" px={4}>
              {index + 1}
            </Badge>
            <div>
              <Text fw={600}>{name}</Text>
              <Text size="xs" c="dimmed">
                {entry.description || policy?.description}
              </Text>
            </div>
          </Group>
          <Group gap={4} wrap="nowrap">
            {invalid && (
              <Badge color="red" variant="light" tt="none">
                {t('apiDesign.policies.incomplete')}
              </Badge>
            )}
            <Switch
              checked={entry.enabled}
              disabled={readOnly}
              onChange={(e) => onToggle(e.currentTarget.checked)}
              aria-label={t('apiDesign.policies.enabledOf', { name })}
              mr="xs"
            />
            {!readOnly && (
              <>
                <Tooltip label={t('apiDesign.policies.moveUp', { name })}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    disabled={index === 0}
                    onClick={() => onMove(index - 1)}
                    aria-label={t('apiDesign.policies.moveUp', { name })}
                  >
                    <IconArrowUp size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('apiDesign.policies.moveDown', { name })}>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    disabled={index === count - 1}
                    onClick={() => onMove(index + 1)}
                    aria-label={t('apiDesign.policies.moveDown', { name })}
                  >
                    <IconArrowDown size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label={t('apiDesign.policies.remove', { name })}>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    onClick={onRemove}
                    aria-label={t('apiDesign.policies.remove', { name })}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </>
            )}
          </Group>
        </Group>
        <Group gap="sm" align="flex-end" wrap="wrap">
          <MultiSelect
            style={{ flex: 1, minWidth: 220 }}
            size="xs"
            label={t('apiDesign.policies.methods')}
            placeholder={entry.methods.length === 0 ? t('apiDesign.policies.allMethods') : undefined}
            data={POLICY_METHODS}
            value={entry.methods}
            readOnly={readOnly}
            onChange={(methods) => onChange({ ...entry, methods })}
          />
          {!readOnly && (
            <Button
              size="compact-sm"
              variant="default"
              mb={2}
              onClick={() => {
                setDescription(entry.description);
                setDescribing(true);
              }}
            >
              {t('apiDesign.policies.describe')}
            </Button>
          )}
          <Button
            variant="subtle"
            size="compact-sm"
            mb={2}
            leftSection={open ? <IconChevronDown size={14} /> : <IconChevronRight size={14} />}
            onClick={() => setOpen(!open)}
            aria-expanded={open}
            aria-controls={panelId}
          >
            {t('apiDesign.policies.configuration', { name })}
          </Button>
        </Group>
        <Collapse expanded={open || (showErrors && invalid)} id={panelId}>
          <Paper p="sm" radius="sm" bg="var(--mantine-color-gray-0)">
            {policy ? (
              <JsonSchemaForm
                schema={policy.schema}
                value={entry.configuration}
                onChange={(configuration) => onChange({ ...entry, configuration })}
                showErrors={showErrors}
                disabled={readOnly}
                idPrefix={entry.key}
              />
            ) : (
              <Text size="sm" c="dimmed">
                {t('apiDesign.policies.unknown', { id: entry.policy })}
              </Text>
            )}
          </Paper>
        </Collapse>
      </Stack>
      <ConfirmDialog
        opened={describing}
        title={t('apiDesign.policies.describeTitle', { name })}
        confirmLabel={t('common.save')}
        confirmDisabled={!!descriptionProblem}
        onClose={() => setDescribing(false)}
        onConfirm={() => {
          onChange({ ...entry, description: description.trim() });
          setDescribing(false);
        }}
      >
        <Textarea
          label={t('apiDesign.policies.description')}
          withAsterisk
          autosize
          minRows={3}
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
          error={descriptionProblem}
          description={`${description.length} / ${POLICY_DESCRIPTION_MAX}`}
          data-autofocus
        />
      </ConfirmDialog>
    </Paper>
  );
}
