import { Button, FileButton, Group, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A place to drop files on, with a button to pick them (keyboard users). */
export function FileDrop({
  accept,
  multiple,
  hint,
  label,
  onFiles,
}: {
  accept: string;
  multiple?: boolean;
  hint: ReactNode;
  label: string;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useTranslation();
  const [over, setOver] = useState(false);
  return (
    <Paper
      withBorder
      radius="md"
      p="lg"
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        borderColor: over ? 'var(--mantine-primary-color-filled)' : undefined,
        background: over ? 'var(--mantine-primary-color-light)' : undefined,
      }}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        const files = [...event.dataTransfer.files];
        if (files.length > 0) onFiles(multiple ? files : files.slice(0, 1));
      }}
    >
      <Stack align="center" gap="xs">
        <IconUpload size={28} stroke={1.5} color="var(--mantine-color-gray-6)" />
        <Text size="sm" c="dimmed" ta="center">
          {t('apis.files.drop')}
        </Text>
        <Group>
          {multiple ? (
            <FileButton multiple accept={accept} onChange={(files) => onFiles(files)}>
              {(props) => (
                <Button {...props} variant="light">
                  {label}
                </Button>
              )}
            </FileButton>
          ) : (
            <FileButton accept={accept} onChange={(file) => file && onFiles([file])}>
              {(props) => (
                <Button {...props} variant="light">
                  {label}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        <Text size="xs" c="dimmed" ta="center">
          {hint}
        </Text>
      </Stack>
    </Paper>
  );
}
