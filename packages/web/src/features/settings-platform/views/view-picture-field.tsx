import { Avatar, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Image upload limit (console-applications-and-settings.md 9). */
export const MAX_PICTURE_BYTES = 1024 * 1024;
const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const readAsDataUrl = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });

/** The picture of a view: images only, 1 MB at most. `value`: undefined keeps it, null removes it. */
export function ViewPictureField({
  current,
  name,
  value,
  disabled,
  onChange,
}: {
  current: string | null;
  name: string;
  value: string | null | undefined;
  disabled: boolean;
  onChange: (value: string | null | undefined) => void;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<'type' | 'size' | null>(null);
  const shown = value === undefined ? current : value;
  const choose = async (file: File | null) => {
    if (!file) return;
    if (!PICTURE_TYPES.includes(file.type)) return setProblem('type');
    if (file.size > MAX_PICTURE_BYTES) return setProblem('size');
    setProblem(null);
    onChange(await readAsDataUrl(file));
  };
  return (
    <Stack gap={6}>
      <Text size="sm" fw={500}>
        {t('settingsViews.picture.label')}
      </Text>
      <Group gap="md" align="center">
        <Avatar
          src={shown}
          alt={t('settingsViews.picture.alt', { name: name || '—' })}
          size={80}
          radius="md"
          name={name || '?'}
          color="initials"
        />
        {!disabled && (
          <Stack gap={4}>
            <Group gap="xs">
              <FileButton onChange={(file) => void choose(file)} accept={PICTURE_TYPES.join(',')}>
                {(props) => (
                  <Button {...props} variant="light" size="xs" leftSection={<IconPhotoUp size={16} />}>
                    {t('settingsViews.picture.change')}
                  </Button>
                )}
              </FileButton>
              {shown && (
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  leftSection={<IconTrash size={16} />}
                  onClick={() => onChange(null)}
                >
                  {t('settingsViews.picture.remove')}
                </Button>
              )}
            </Group>
            <Text size="xs" c="dimmed">
              {t('settingsViews.picture.hint')}
            </Text>
          </Stack>
        )}
      </Group>
      {problem && (
        <Text size="xs" c="red" role="alert">
          {problem === 'size' ? t('settingsViews.picture.tooBig') : t('settingsViews.picture.badType')}
        </Text>
      )}
    </Stack>
  );
}
