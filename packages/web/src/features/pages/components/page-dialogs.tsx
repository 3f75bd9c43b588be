import { Select, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../shared/ui/confirm-dialog';
import type { DocPage } from '../api/pages';
import { folderPath, isFolderPage } from '../api/pages';

/**
 * A name asked for: a new folder or root page, or a folder renamed (with a hint, when given, on what
 * is being named). Save stays disabled while empty or unchanged.
 */
export function NameDialog({
  title,
  hint,
  initial,
  loading,
  onSave,
  onClose,
}: {
  title: string;
  hint?: string | undefined;
  initial: string;
  loading: boolean;
  onSave: (name: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial);
  const valid = name.trim() !== '' && name.trim() !== initial;
  return (
    <ConfirmDialog
      opened
      title={title}
      confirmLabel={t('common.save')}
      confirmDisabled={!valid}
      loading={loading}
      onConfirm={() => onSave(name.trim())}
      onClose={onClose}
    >
      {hint && (
        <Text size="sm" c="dimmed" mb="sm">
          {hint}
        </Text>
      )}
      <TextInput
        label={t('pages.list.name')}
        value={name}
        required
        data-autofocus
        error={name.trim() === '' ? t('pages.list.nameRequired') : undefined}
        onChange={(event) => setName(event.currentTarget.value)}
      />
    </ConfirmDialog>
  );
}

/** Moves a page to another folder (or the root, ~); a folder never goes into itself or its sub-folders. */
export function MoveDialog({
  page,
  pages,
  loading,
  onMove,
  onClose,
}: {
  page: DocPage;
  pages: readonly DocPage[];
  loading: boolean;
  onMove: (parentId: string | null) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string>(page.parentId ?? '');
  const folders = pages
    .filter((p) => isFolderPage(p) && !folderPath(pages, p.id).some((f) => f.id === page.id))
    .map((p) => ({
      value: p.id,
      label: ['~', ...folderPath(pages, p.id).map((f) => f.name)].join(' / '),
    }));
  return (
    <ConfirmDialog
      opened
      title={t('pages.move.title', { name: page.name })}
      confirmLabel={t('pages.move.confirm')}
      confirmDisabled={target === (page.parentId ?? '')}
      loading={loading}
      onConfirm={() => onMove(target || null)}
      onClose={onClose}
    >
      <Select
        label={t('pages.move.folder')}
        data={[{ value: '', label: '~' }, ...folders]}
        value={target}
        allowDeselect={false}
        onChange={(value) => setTarget(value ?? '')}
        comboboxProps={{ withinPortal: false }}
      />
    </ConfirmDialog>
  );
}
