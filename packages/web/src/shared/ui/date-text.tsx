import { Text, Tooltip } from '@mantine/core';
import type { TextProps } from '@mantine/core';
import dayjs from 'dayjs';
import { humanDate } from '../lib/dates';

/** A date as people read it (relative within a week), the exact one in a tooltip; a dash when absent. */
export function DateText({ value, ...props }: { value: number | null | undefined } & TextProps) {
  if (value === null || value === undefined)
    return (
      <Text span size="sm" c="dimmed" {...props}>
        —
      </Text>
    );
  const exact = dayjs(value).format('YYYY-MM-DD HH:mm');
  return (
    <Tooltip label={exact} openDelay={300}>
      <Text span size="sm" {...props}>
        <time dateTime={new Date(value).toISOString()}>{humanDate(value)}</time>
      </Text>
    </Tooltip>
  );
}
