import '@mantine/dates/styles.css';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { IconCalendar } from '@tabler/icons-react';
import { dateLocale } from '../lib/dates';

/** The format of dates typed or picked in the console's dialogs (console-apis.md section 5). */
export const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

const toPicker = (epochMs: number | null) =>
  epochMs === null ? null : dayjs(epochMs).format('YYYY-MM-DD HH:mm:ss');

/**
 * A date and time, as epoch milliseconds (null: none), picked in a calendar in the user's language and
 * shown as YYYY-MM-DD HH:mm; `min` and `max` bound the days offered.
 */
export function DateTimeField({
  label,
  description,
  value,
  onChange,
  min,
  max,
  error,
  clearable = true,
  required,
  placeholder,
}: {
  label: string;
  description?: string;
  value: number | null;
  onChange: (value: number | null) => void;
  min?: number;
  max?: number;
  error?: string;
  clearable?: boolean;
  required?: boolean;
  placeholder?: string;
}) {
  return (
    <DatesProvider settings={{ locale: dateLocale() }}>
      <DateTimePicker
        label={label}
        description={description}
        placeholder={placeholder}
        value={toPicker(value)}
        onChange={(next) => onChange(next ? dayjs(next).valueOf() : null)}
        valueFormat={DATE_TIME_FORMAT}
        minDate={min === undefined ? undefined : dayjs(min).format('YYYY-MM-DD HH:mm:ss')}
        maxDate={max === undefined ? undefined : dayjs(max).format('YYYY-MM-DD HH:mm:ss')}
        clearable={clearable}
        required={required}
        error={error}
        leftSection={<IconCalendar size={16} />}
        popoverProps={{ withinPortal: true }}
      />
    </DatesProvider>
  );
}
