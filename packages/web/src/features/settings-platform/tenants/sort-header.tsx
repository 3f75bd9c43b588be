import { Group, Table, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconSelector } from '@tabler/icons-react';
import type { TenantSort } from './tenant-rules';

/** A column header that sorts the table (again: the other way). */
export function SortHeader({
  column,
  label,
  sort,
  onSort,
}: {
  column: TenantSort['column'];
  label: string;
  sort: TenantSort;
  onSort: (sort: TenantSort) => void;
}) {
  const active = sort.column === column;
  const Icon = !active ? IconSelector : sort.descending ? IconChevronDown : IconChevronUp;
  return (
    <Table.Th aria-sort={active ? (sort.descending ? 'descending' : 'ascending') : 'none'}>
      <UnstyledButton
        fw={700}
        fz="sm"
        onClick={() => onSort({ column, descending: active ? !sort.descending : false })}
      >
        <Group gap={4} wrap="nowrap">
          {label}
          <Icon size={14} aria-hidden />
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}
