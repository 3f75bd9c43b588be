import { Checkbox, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Right } from '../api/roles';
import { RIGHTS } from '../api/roles';

export type PermissionMap = Record<string, Right[]>;

const has = (map: PermissionMap, permission: string, right: Right) =>
  map[permission]?.includes(right) ?? false;

/** Sets or clears one right of one permission, keeping rights in C, R, U, D order. */
export function toggled(map: PermissionMap, permission: string, right: Right, on: boolean): PermissionMap {
  const current = new Set(map[permission] ?? []);
  if (on) current.add(right);
  else current.delete(right);
  return { ...map, [permission]: RIGHTS.filter((r) => current.has(r)) };
}

/** One row per permission, one column per right (CREATE, READ, UPDATE, DELETE), each column with select-all. */
export function PermissionGrid({
  permissions,
  value,
  onChange,
  readOnly,
}: {
  permissions: readonly string[];
  value: PermissionMap;
  onChange: (next: PermissionMap) => void;
  readOnly: boolean;
}) {
  const { t } = useTranslation();
  const column = (right: Right) => permissions.filter((p) => has(value, p, right)).length;
  const setColumn = (right: Right, on: boolean) =>
    onChange(permissions.reduce((map, p) => toggled(map, p, right, on), value));
  return (
    <Table withTableBorder verticalSpacing="xs" stickyHeader>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('settingsRoles.form.permission')}</Table.Th>
          {RIGHTS.map((right) => {
            const count = column(right);
            return (
              <Table.Th key={right} ta="center" w={110}>
                <Checkbox
                  label={t(`settingsRoles.rights.${right}`)}
                  aria-label={t('settingsRoles.form.selectAll', {
                    right: t(`settingsRoles.rights.${right}`),
                  })}
                  checked={count === permissions.length && count > 0}
                  indeterminate={count > 0 && count < permissions.length}
                  disabled={readOnly}
                  onChange={(event) => setColumn(right, event.currentTarget.checked)}
                  styles={{ body: { justifyContent: 'center' } }}
                />
              </Table.Th>
            );
          })}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {permissions.map((permission) => (
          <Table.Tr key={permission}>
            <Table.Td>
              <Text size="sm">{permission}</Text>
            </Table.Td>
            {RIGHTS.map((right) => (
              <Table.Td key={right} ta="center">
                <Checkbox
                  aria-label={`${permission} ${t(`settingsRoles.rights.${right}`)}`}
                  checked={has(value, permission, right)}
                  disabled={readOnly}
                  onChange={(event) =>
                    onChange(toggled(value, permission, right, event.currentTarget.checked))
                  }
                  styles={{ body: { justifyContent: 'center' } }}
                />
              </Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
