import {
  ActionIcon,
  Button,
  Code,
  Group,
  Modal,
  NumberInput,
  Paper,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../shared/ui/date-time-field';
import type { ConditionRow, ConditionType, DurationUnit } from '../logging-condition';
import {
  CONDITION_METHODS,
  CONDITION_TYPES,
  DURATION_UNITS,
  buildCondition,
  conditionProblems,
  conditionsValid,
  newConditionRow,
} from '../logging-condition';

export interface Option {
  value: string;
  label: string;
}

function RowFields({
  row,
  index,
  now,
  plans,
  applications,
  onChange,
}: {
  row: ConditionRow;
  index: number;
  now: number;
  plans: Option[];
  applications: Option[];
  onChange: (row: ConditionRow) => void;
}) {
  const { t } = useTranslation();
  const problems = conditionProblems(row, now);
  const error = (field: string) => {
    const problem = problems[field];
    return problem ? t(`logs.builder.problems.${problem}`) : undefined;
  };
  const set = (patch: Partial<ConditionRow>) => onChange({ ...row, ...patch });
  const n = index + 1;
  switch (row.type) {
    case 'plan':
    case 'application':
      return (
        <Select
          label={t(`logs.builder.${row.type}`)}
          aria-label={`${t(`logs.builder.${row.type}`)} ${n}`}
          data={row.type === 'plan' ? plans : applications}
          value={row.key || null}
          onChange={(key) => set({ key: key ?? '' })}
          error={error('key')}
          searchable
          required
        />
      );
    case 'request-header':
    case 'request-param': {
      const kind = row.type === 'request-header' ? 'header' : 'param';
      return (
        <Group grow align="flex-start">
          <TextInput
            label={t(`logs.builder.${kind}Name`)}
            value={row.key}
            onChange={(e) => set({ key: e.currentTarget.value })}
            error={error('key')}
            required
          />
          <TextInput
            label={t(`logs.builder.${kind}Value`)}
            value={row.value}
            onChange={(e) => set({ value: e.currentTarget.value })}
            error={error('value')}
            required
          />
        </Group>
      );
    }
    case 'request-method':
      return (
        <Select
          label={t('logs.builder.method')}
          data={[...CONDITION_METHODS]}
          value={row.key}
          onChange={(key) => set({ key: key ?? 'GET' })}
          allowDeselect={false}
        />
      );
    case 'remote-address':
      return (
        <TextInput
          label={t('logs.builder.remoteAddress')}
          value={row.key}
          onChange={(e) => set({ key: e.currentTarget.value })}
          error={error('key')}
          required
        />
      );
    case 'logging-duration':
      return (
        <Group grow align="flex-start">
          <NumberInput
            label={t('logs.builder.duration')}
            value={row.duration}
            min={1}
            allowDecimal={false}
            onChange={(value) =>
              set({ duration: typeof value === 'number' ? value : value === '' ? '' : Number(value) })
            }
            error={error('duration')}
            required
          />
          <Select
            label={t('logs.builder.unit')}
            data={DURATION_UNITS.map((u) => ({ value: u, label: t(`logs.builder.units.${u}`) }))}
            value={row.unit || null}
            onChange={(unit) => set({ unit: (unit ?? '') as DurationUnit | '' })}
            error={error('unit')}
            required
          />
        </Group>
      );
    case 'logging-end-date':
      return (
        <DateTimeField
          label={t('logs.builder.end')}
          value={row.end}
          onChange={(end) => set({ end })}
          min={now}
          error={error('end')}
          required
        />
      );
  }
}

/**
 * The condition editor: conditions of every type of section 9, combined with AND, previewed as the
 * expression; Save is disabled while one is invalid, and hands the expression back.
 */
export function ConditionDialog({
  opened,
  onClose,
  onSave,
  plans,
  applications,
}: {
  opened: boolean;
  onClose: () => void;
  onSave: (condition: string) => void;
  plans: Option[];
  applications: Option[];
}) {
  const { t } = useTranslation();
  const [rows, setRows] = useState<ConditionRow[]>([newConditionRow('request-method')]);
  const [now] = useState(() => Date.now());
  const valid = conditionsValid(rows, now);
  const replace = (i: number, row: ConditionRow) => setRows((all) => all.map((r, j) => (j === i ? row : r)));
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('logs.builder.title')}
      size="xl"
      closeButtonProps={{ 'aria-label': t('common.closeDialog') }}
    >
      <Stack gap="md">
        {rows.map((row, i) => (
          <Paper
            key={i}
            withBorder
            radius="md"
            p="sm"
            role="group"
            aria-label={t('logs.builder.conditionN', { n: i + 1 })}
          >
            {i > 0 && (
              <Text size="xs" fw={700} c="dimmed" mb={4}>
                {t('logs.builder.and')}
              </Text>
            )}
            <Group align="flex-start" wrap="nowrap">
              <Select
                label={t('logs.builder.type')}
                data={CONDITION_TYPES.map((type) => ({
                  value: type,
                  label: t(`logs.builder.types.${type}`),
                }))}
                value={row.type}
                onChange={(type) => type && replace(i, newConditionRow(type as ConditionType))}
                allowDeselect={false}
                w={220}
              />
              <div style={{ flex: 1 }}>
                <RowFields
                  row={row}
                  index={i}
                  now={now}
                  plans={plans}
                  applications={applications}
                  onChange={(next) => replace(i, next)}
                />
              </div>
              <ActionIcon
                variant="subtle"
                color="red"
                mt={26}
                aria-label={t('logs.builder.remove', { n: i + 1 })}
                disabled={rows.length === 1}
                onClick={() => setRows((all) => all.filter((_, j) => j !== i))}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
        <Group>
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            onClick={() => setRows((all) => [...all, newConditionRow('request-header')])}
          >
            {t('logs.builder.add')}
          </Button>
        </Group>
        {valid && (
          <div>
            <Text size="sm" fw={600}>
              {t('logs.builder.preview')}
            </Text>
            <Code block>{buildCondition(rows, now)}</Code>
          </div>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            disabled={!valid}
            onClick={() => {
              onSave(buildCondition(rows, Date.now()));
              onClose();
            }}
          >
            {t('logs.builder.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
