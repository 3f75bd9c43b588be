import { ActionIcon, Paper, Stack, Text } from '@mantine/core';
import type { Announcements, DragEndEvent, ScreenReaderInstructions } from '@dnd-kit/core';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { PolicyDescription } from '../plans/api/types';
import type { PolicyEntry } from './design-model';
import { moveEntry } from './design-model';
import { PolicyCard } from './policy-card';

/**
 * The policies of one path, run in this order: dragged by their handle (only with api-definition-u; the
 * keyboard lifts with Space and moves with the arrows, or uses the move buttons).
 */
export function PolicyChain({
  entries,
  policies,
  readOnly,
  showErrors,
  onChange,
  onToggle,
}: {
  entries: PolicyEntry[];
  policies: PolicyDescription[];
  readOnly: boolean;
  showErrors: boolean;
  onChange: (entries: PolicyEntry[]) => void;
  /** The enabled toggle saves at once (console-apis.md 2.6). */
  onToggle: (entries: PolicyEntry[]) => void;
}) {
  const { t } = useTranslation();
  const byId = new Map(policies.map((p) => [p.id, p] as const));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) => {
    const entry = entries.find((e) => e.key === id);
    return entry ? (byId.get(entry.policy)?.name ?? entry.policy) : '';
  };
  const position = (id: string | number) => entries.findIndex((e) => e.key === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('apiDesign.reorder.picked', { name: nameOf(active.id), position: position(active.id) }),
    onDragOver: ({ active, over }) =>
      over
        ? t('apiDesign.reorder.over', { name: nameOf(active.id), position: position(over.id) })
        : undefined,
    onDragEnd: ({ active, over }) =>
      over
        ? t('apiDesign.reorder.dropped', { name: nameOf(active.id), position: position(over.id) })
        : undefined,
    onDragCancel: ({ active }) => t('apiDesign.reorder.cancelled', { name: nameOf(active.id) }),
  };
  const instructions: ScreenReaderInstructions = { draggable: t('apiDesign.reorder.instructions') };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onChange(moveEntry(entries, position(active.id) - 1, position(over.id) - 1));
  };

  if (entries.length === 0) {
    return (
      <Paper withBorder radius="md" p="lg" bg="var(--mantine-color-gray-0)">
        <Text size="sm" c="dimmed" ta="center">
          {t('apiDesign.policies.empty')}
        </Text>
      </Paper>
    );
  }
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: instructions }}
    >
      <SortableContext items={entries.map((e) => e.key)} strategy={verticalListSortingStrategy}>
        <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {entries.map((entry, index) => (
            <SortableEntry
              key={entry.key}
              entry={entry}
              index={index}
              count={entries.length}
              policy={byId.get(entry.policy)}
              readOnly={readOnly}
              showErrors={showErrors}
              name={nameOf(entry.key)}
              onChange={(next) => onChange(entries.map((e) => (e.key === entry.key ? next : e)))}
              onToggle={(enabled) =>
                onToggle(entries.map((e) => (e.key === entry.key ? { ...e, enabled } : e)))
              }
              onMove={(to) => onChange(moveEntry(entries, index, to))}
              onRemove={() => onChange(entries.filter((e) => e.key !== entry.key))}
            />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

function SortableEntry({
  name,
  readOnly,
  ...props
}: Omit<Parameters<typeof PolicyCard>[0], 'handle'> & { name: string }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition } = useSortable({
    id: props.entry.key,
    disabled: readOnly,
  });
  return (
    <li ref={setNodeRef} style={{ transform: CSS.Transform.toString(transform), transition }}>
      <PolicyCard
        {...props}
        readOnly={readOnly}
        handle={
          readOnly ? null : (
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              color="gray"
              style={{ cursor: 'grab', touchAction: 'none' }}
              {...attributes}
              {...listeners}
              aria-label={t('apiDesign.reorder.handle', { name })}
            >
              <IconGripVertical size={18} />
            </ActionIcon>
          )
        }
      />
    </li>
  );
}
