import {
  ActionIcon,
  Button,
  Center,
  EmptyState,
  Group,
  Loader,
  Paper,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { TableProps } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TranslationKey } from '../i18n/keys';
import { ConfirmDialog, ConfirmText } from './confirm-dialog';
import { notifySuccess } from './notify';

/** The add button of a settings list: a link to the creation screen, or a button opening a dialog. */
export type SettingsListAdd = { label: string } & ({ to: string } | { onClick: () => void });

/**
 * The frame of a settings list screen (views, tags, tenants, metadata, dictionaries, groups, ...):
 * title and hint, the add button (when the user may create), a loader, the empty state or the table
 * with its header and rows, then what the screen shows below the list (dialogs, other sections).
 */
export function SettingsListPage({
  title,
  hint,
  add,
  loading,
  isEmpty,
  empty,
  minWidth,
  tableProps,
  intro,
  head,
  rows,
  children,
}: {
  title: string;
  hint: string;
  /** Absent when the user may not create. */
  add?: SettingsListAdd | false;
  loading: boolean;
  /** With `empty`, shows the empty state instead of the table. */
  isEmpty?: boolean;
  empty?: { icon: ReactNode; title: string; description?: string };
  minWidth: number;
  tableProps?: TableProps;
  /** Shown between the title and the list. */
  intro?: ReactNode;
  /** The header cells. */
  head: ReactNode;
  /** The body rows. */
  rows: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        </div>
        {add &&
          ('to' in add ? (
            <Button component={Link} to={add.to} leftSection={<IconPlus size={16} />}>
              {add.label}
            </Button>
          ) : (
            <Button leftSection={<IconPlus size={16} />} onClick={add.onClick}>
              {add.label}
            </Button>
          ))}
      </Group>
      {intro}
      <Paper withBorder radius="md">
        {loading ? (
          <Center py="xl">
            <Loader aria-label={t('common.loading')} />
          </Center>
        ) : isEmpty && empty ? (
          <EmptyState
            py={48}
            variant="light"
            icon={empty.icon}
            title={empty.title}
            description={empty.description}
          />
        ) : (
          <Table.ScrollContainer minWidth={minWidth}>
            <Table verticalSpacing="sm" {...tableProps}>
              <Table.Thead>
                <Table.Tr>{head}</Table.Tr>
              </Table.Thead>
              <Table.Tbody>{rows}</Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Paper>
      {children}
    </Stack>
  );
}

/** The red bin of a list row. */
export function RowDeleteButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <ActionIcon variant="subtle" color="red" aria-label={label} onClick={onClick}>
      <IconTrash size={18} />
    </ActionIcon>
  );
}

/**
 * Asks before deleting the row `item` of a settings list (closed while it is null); on OK runs the
 * deletion, says `done` (with the row's name) and closes.
 */
export function DeleteConfirmDialog<T extends { name: string }>({
  item,
  question,
  title,
  confirmLabel,
  remove,
  idOf,
  done,
  onClose,
}: {
  item: T | null;
  question: (item: T) => string;
  title: string;
  confirmLabel: string;
  remove: { isPending: boolean; mutate: (id: string, options: { onSuccess: () => void }) => void };
  idOf: (item: T) => string;
  done: TranslationKey;
  onClose: () => void;
}) {
  return (
    <ConfirmDialog
      opened={item !== null}
      title={title}
      confirmLabel={confirmLabel}
      color="red"
      loading={remove.isPending}
      onClose={onClose}
      onConfirm={() =>
        item &&
        remove.mutate(idOf(item), {
          onSuccess: () => {
            notifySuccess(done, { name: item.name });
            onClose();
          },
        })
      }
    >
      <ConfirmText>{item && question(item)}</ConfirmText>
    </ConfirmDialog>
  );
}
