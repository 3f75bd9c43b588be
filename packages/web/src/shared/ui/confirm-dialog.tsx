import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogForm } from './dialog-form';

/**
 * A confirmation with OK and Cancel. With `typed`, OK stays disabled until the text typed equals it
 * (closing a plan asks for its name).
 */
export function ConfirmDialog({
  opened,
  title,
  children,
  confirmLabel,
  color = 'blue',
  typed,
  loading,
  confirmDisabled = false,
  onConfirm,
  onClose,
}: {
  opened: boolean;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  color?: string;
  typed?: string;
  loading?: boolean;
  /** OK stays disabled (a field of the dialog is not valid). */
  confirmDisabled?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const close = () => {
    setText('');
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      centered
      closeButtonProps={{ 'aria-label': t('common.closeDialog') }}
    >
      <DialogForm
        onSubmit={(event) => {
          event.preventDefault();
          if (!confirmDisabled && (typed === undefined || text === typed)) onConfirm();
        }}
      >
        <Stack gap="md">
          <div>{children}</div>
          {typed !== undefined && (
            <TextInput
              label={t('common.typeToConfirm', { value: typed })}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              data-autofocus
              autoComplete="off"
            />
          )}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button
              type="submit"
              color={color}
              loading={loading}
              disabled={confirmDisabled || (typed !== undefined && text !== typed)}
              data-autofocus={typed === undefined || undefined}
            >
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}

/** A paragraph of a confirmation. */
export const ConfirmText = ({ children }: { children: ReactNode }) => <Text size="sm">{children}</Text>;
