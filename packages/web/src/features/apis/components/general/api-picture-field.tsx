import { Avatar, Button, FileButton, Stack, Text } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MAX_PICTURE_BYTES } from '../../rules';

const PICTURE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

const readAsDataUrl = (file: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
    reader.readAsDataURL(file);
  });

/** The API's picture: images only, 1 MB at most. `value`: undefined keeps it, null removes it. */
export function ApiPictureField({
  current,
  name,
  value,
  disabled,
  onChange,
}: {
  current: string;
  name: string;
  value: string | null | undefined;
  disabled: boolean;
  onChange: (value: string | null | undefined) => void;
}) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<'type' | 'size' | null>(null);
  const choose = async (file: File | null) => {
    if (!file) return;
    if (!PICTURE_TYPES.includes(file.type)) return setProblem('type');
    if (file.size > MAX_PICTURE_BYTES) return setProblem('size');
    setProblem(null);
    onChange(await readAsDataUrl(file));
  };
  return (
    <Stack align="center" gap="xs" w={160}>
      <Avatar
        src={value === undefined ? current : value}
        alt={t('apis.frame.picture', { name })}
        size={112}
        radius="md"
        name={name}
        color="initials"
      />
      {!disabled && (
        <>
          <FileButton onChange={(file) => void choose(file)} accept={PICTURE_TYPES.join(',')}>
            {(props) => (
              <Button {...props} variant="light" size="xs" leftSection={<IconPhotoUp size={16} />}>
                {t('apis.general.picture.change')}
              </Button>
            )}
          </FileButton>
          {value !== null && (
            <Button
              variant="subtle"
              color="red"
              size="xs"
              leftSection={<IconTrash size={16} />}
              onClick={() => onChange(null)}
            >
              {t('apis.general.picture.remove')}
            </Button>
          )}
          <Text size="xs" c="dimmed" ta="center">
            {t('apis.general.picture.hint')}
          </Text>
        </>
      )}
      {problem && (
        <Text size="xs" c="red" ta="center" role="alert">
          {problem === 'size'
            ? t('apis.general.picture.tooBig', { max: MAX_PICTURE_BYTES })
            : t('apis.general.picture.badType')}
        </Text>
      )}
    </Stack>
  );
}
