import { ActionIcon, Stack } from '@mantine/core';
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
  arrayMove,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { IconGripVertical } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../shared/ui/notify';
import { useReorderPlans } from '../api/plans';
import type { Plan } from '../api/types';
import { PlanCard } from './plan-card';
import classes from './plan-card.module.css';

/**
 * The published plans, reordered by dragging their handle (or with the keyboard: Space to lift, the
 * arrows to move, Space to drop). Each plan whose place changed is saved with its new order.
 */
export function SortablePlanList({
  apiId,
  plans,
  actions,
}: {
  apiId: string;
  plans: Plan[];
  actions: (plan: Plan) => ReactNode;
}) {
  const { t } = useTranslation();
  const reorder = useReorderPlans(apiId);
  // While the orders are saved, the list keeps the order the user dropped.
  const [dropped, setDropped] = useState<Plan[] | null>(null);
  const items = dropped ?? plans;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const nameOf = (id: string | number) => items.find((plan) => plan.id === id)?.name ?? '';
  const position = (id: string | number) => items.findIndex((plan) => plan.id === id) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('plans.reorder.picked', { name: nameOf(active.id), position: position(active.id) }),
    onDragOver: ({ active, over }) =>
      over ? t('plans.reorder.over', { name: nameOf(active.id), position: position(over.id) }) : undefined,
    onDragEnd: ({ active, over }) =>
      over ? t('plans.reorder.dropped', { name: nameOf(active.id), position: position(over.id) }) : undefined,
    onDragCancel: ({ active }) => t('plans.reorder.cancelled', { name: nameOf(active.id) }),
  };
  const instructions: ScreenReaderInstructions = { draggable: t('plans.reorder.instructions') };

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const next = arrayMove(items, position(active.id) - 1, position(over.id) - 1);
    setDropped(next);
    reorder.mutate(next, {
      onSuccess: () => notifySuccess('plans.reorder.saved'),
      onSettled: () => setDropped(null),
    });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={onDragEnd}
      accessibility={{ announcements, screenReaderInstructions: instructions }}
    >
      <SortableContext items={items.map((plan) => plan.id)} strategy={verticalListSortingStrategy}>
        <Stack
          gap="sm"
          component="ul"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
          aria-busy={reorder.isPending}
        >
          {items.map((plan) => (
            <SortablePlan key={plan.id} plan={plan} actions={actions(plan)} disabled={reorder.isPending} />
          ))}
        </Stack>
      </SortableContext>
    </DndContext>
  );
}

function SortablePlan({ plan, actions, disabled }: { plan: Plan; actions: ReactNode; disabled: boolean }) {
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id: plan.id, disabled });
  return (
    <li
      ref={setNodeRef}
      style={{ transform: CSS.Transform.toString(transform), transition }}
      className={isDragging ? classes.dragging : undefined}
      data-plan-id={plan.id}
    >
      <PlanCard
        plan={plan}
        actions={actions}
        handle={
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            className={classes.handle}
            {...attributes}
            {...listeners}
            aria-label={t('plans.reorder.handle', { name: plan.name })}
          >
            <IconGripVertical size={18} />
          </ActionIcon>
        }
      />
    </li>
  );
}
