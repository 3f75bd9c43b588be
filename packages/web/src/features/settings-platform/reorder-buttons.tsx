import { ActionIcon, Group } from '@mantine/core';
import { IconArrowDown, IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Moves an item of an ordered list one place up or down (console-applications-and-settings.md 2.3). */
export function ReorderButtons({
  name,
  index,
  count,
  disabled = false,
  onMove,
}: {
  name: string;
  index: number;
  count: number;
  disabled?: boolean;
  onMove: (from: number, to: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={2} wrap="nowrap">
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('settingsViews.moveUp', { name })}
        disabled={disabled || index === 0}
        onClick={() => onMove(index, index - 1)}
      >
        <IconArrowUp size={16} />
      </ActionIcon>
      <ActionIcon
        variant="subtle"
        color="gray"
        aria-label={t('settingsViews.moveDown', { name })}
        disabled={disabled || index === count - 1}
        onClick={() => onMove(index, index + 1)}
      >
        <IconArrowDown size={16} />
      </ActionIcon>
    </Group>
  );
}

/** The list with the item at `from` moved to `to`. */
export function moved<T>(list: readonly T[], from: number, to: number): T[] {
  const next = [...list];
  const [item] = next.splice(from, 1);
  next.splice(to, 0, item!);
  return next;
}
