import { Checkbox, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../shared/ui/confirm-dialog';
import type { PathProblem } from './design-model';
import { pathProblem } from './design-model';

const PROBLEMS = {
  required: 'apiDesign.paths.required',
  slash: 'apiDesign.paths.slash',
  duplicate: 'apiDesign.paths.duplicate',
} as const satisfies Record<PathProblem, string>;

/**
 * Adds a policy path (console-apis.md 2.6 and 5): required, starting with '/', not a duplicate once
 * parameters and trailing slashes are normalised; optionally with a copy of the root path's policies
 * (offered only when a '/' path exists).
 */
export function AddPathDialog({
  opened,
  existing,
  onAdd,
  onClose,
}: {
  opened: boolean;
  existing: string[];
  onAdd: (path: string, copyFromRoot: boolean) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [path, setPath] = useState('/');
  const [touched, setTouched] = useState(false);
  const [copy, setCopy] = useState(false);
  const problem = pathProblem(existing, path);
  const close = () => {
    setPath('/');
    setTouched(false);
    setCopy(false);
    onClose();
  };
  return (
    <ConfirmDialog
      opened={opened}
      title={t('apiDesign.paths.addTitle')}
      confirmLabel={t('apiDesign.paths.add')}
      confirmDisabled={!!problem}
      onClose={close}
      onConfirm={() => {
        onAdd(path.trim(), copy);
        close();
      }}
    >
      <Stack gap="sm">
        <TextInput
          label={t('apiDesign.paths.path')}
          withAsterisk
          description={t('apiDesign.paths.pathHint')}
          value={path}
          onChange={(e) => {
            setPath(e.currentTarget.value);
            setTouched(true);
          }}
          error={touched && problem ? t(PROBLEMS[problem]) : undefined}
          data-autofocus
        />
        {existing.includes('/') && (
          <Checkbox
            label={t('apiDesign.paths.copyFromRoot')}
            checked={copy}
            onChange={(e) => setCopy(e.currentTarget.checked)}
          />
        )}
      </Stack>
    </ConfirmDialog>
  );
}
