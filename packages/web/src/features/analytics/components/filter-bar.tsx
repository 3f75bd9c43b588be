import { Badge, Button, CloseButton, Group, MultiSelect, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Filter } from '../filters';
import {
  DISPLAY_FIELD,
  DISPLAY_MODES,
  METHODS,
  RESPONSE_TIME_RANGES,
  STATUS_RANGES,
  rangeValue,
  withFieldValues,
} from '../filters';

const statusValues = STATUS_RANGES.map(([from, to]) => rangeValue(from, to));
const timeValues = RESPONSE_TIME_RANGES.map(([from, to]) => rangeValue(from, to));

/** The filter selects: method, status class, response-time bucket, display mode. */
export function FilterSelects({ filters, onChange }: { filters: Filter[]; onChange: (f: Filter[]) => void }) {
  const { t } = useTranslation();
  const values = (field: string, allowed?: readonly string[]) =>
    filters.filter((f) => f.field === field && (!allowed || allowed.includes(f.value))).map((f) => f.value);
  const display = values(DISPLAY_FIELD)[0] ?? 'all';
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <MultiSelect
        label={t('dashboards.filters.method')}
        placeholder={t('dashboards.filters.any')}
        data={METHODS}
        value={values('method', METHODS)}
        onChange={(v) => onChange(withFieldValues(filters, 'method', v))}
        w={200}
        clearable
      />
      <MultiSelect
        label={t('dashboards.filters.status')}
        placeholder={t('dashboards.filters.any')}
        data={statusValues.map((value, i) => ({ value, label: `${i + 1}xx` }))}
        value={values('status', statusValues)}
        onChange={(v) => onChange(withFieldValues(filters, 'status', v))}
        w={200}
        clearable
      />
      <MultiSelect
        label={t('dashboards.filters.responseTime')}
        placeholder={t('dashboards.filters.any')}
        data={timeValues.map((value, i) => {
          const [from, to] = RESPONSE_TIME_RANGES[i]!;
          return { value, label: to === '*' ? `> ${from} ms` : `${from} - ${to} ms` };
        })}
        value={values('response-time', timeValues)}
        onChange={(v) => onChange(withFieldValues(filters, 'response-time', v))}
        w={220}
        clearable
      />
      <Select
        label={t('dashboards.filters.display')}
        data={DISPLAY_MODES.map((mode) => ({
          value: mode,
          label: t(`dashboards.filters.displayModes.${mode}`),
        }))}
        value={display}
        allowDeselect={false}
        onChange={(v) => onChange(withFieldValues(filters, DISPLAY_FIELD, v && v !== 'all' ? [v] : []))}
        w={300}
      />
    </Group>
  );
}

/** The active filters as removable chips. */
export function FilterChips({
  filters,
  nameOf,
  onRemove,
  onClear,
}: {
  filters: Filter[];
  nameOf: (f: Filter) => string;
  onRemove: (f: Filter) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  if (filters.length === 0) return null;
  return (
    <Group gap="xs" role="group" aria-label={t('dashboards.filters.active')}>
      <Text size="sm" fw={600}>
        {t('dashboards.filters.active')}
      </Text>
      {filters.map((f) => {
        const text = nameOf(f);
        return (
          <Badge
            key={`${f.field}:${f.value}`}
            variant="light"
            size="lg"
            tt="none"
            pr={3}
            rightSection={
              <CloseButton
                size="xs"
                variant="transparent"
                aria-label={t('dashboards.filters.remove', { name: text })}
                onClick={() => onRemove(f)}
              />
            }
          >
            {text}
          </Badge>
        );
      })}
      <Button variant="subtle" size="compact-sm" onClick={onClear}>
        {t('dashboards.filters.clear')}
      </Button>
    </Group>
  );
}
