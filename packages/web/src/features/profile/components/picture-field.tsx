import { Avatar, Button, FileButton, Stack, Text } from '@mantine/core';
import { IconPhotoUp, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ownAvatarUrl } from '../../../shared/session/current-user';
import type { CurrentUser } from '../../../shared/session/permissions';
import type { PictureProblem } from '../picture';
import { MAX_PICTURE_BYTES, PICTURE_TYPES, pictureProblem, readAsDataUrl } from '../picture';

/** A pending picture change: undefined keeps the current picture, null removes it, a data URL replaces it. */
export function usePictureChange() {
  const [value, setValue] = useState<string | null | undefined>(undefined);
  const [problem, setProblem] = useState<PictureProblem | 'read' | undefined>(undefined);
  return {
    value,
    problem,
    async choose(file: File | null) {
      if (!file) return;
      const found = pictureProblem(file);
      setProblem(found);
      if (found) return;
      try {
        setValue(await readAsDataUrl(file));
      } catch {
        setProblem('read');
      }
    },
    remove() {
      setProblem(undefined);
      setValue(null);
    },
    reset() {
      setProblem(undefined);
      setValue(undefined);
    },
  };
}

export type PictureChange = ReturnType<typeof usePictureChange>;

/** The avatar with its upload (images only, 1 MB at most) and remove buttons. */
export function PictureField({ user, change }: { user: CurrentUser; change: PictureChange }) {
  const { t } = useTranslation();
  const src = change.value === undefined ? ownAvatarUrl(user.updated_at) : change.value;
  const hasPicture = change.value === undefined ? user.hasPicture !== false : change.value !== null;
  return (
    <Stack align="center" gap="xs" w={180}>
      <Avatar
        src={src}
        alt={t('profile.picture.alt')}
        size={112}
        radius={112}
        name={user.displayName}
        color="initials"
      />
      <FileButton onChange={(file) => void change.choose(file)} accept={PICTURE_TYPES.join(',')}>
        {(props) => (
          <Button {...props} variant="light" size="xs" leftSection={<IconPhotoUp size={16} />}>
            {t('profile.picture.change')}
          </Button>
        )}
      </FileButton>
      {hasPicture && (
        <Button
          variant="subtle"
          color="red"
          size="xs"
          leftSection={<IconTrash size={16} />}
          onClick={change.remove}
        >
          {t('profile.picture.remove')}
        </Button>
      )}
      <Text size="xs" c="dimmed" ta="center">
        {t('profile.picture.hint', { size: MAX_PICTURE_BYTES / (1024 * 1024) })}
      </Text>
      {change.problem && (
        <Text size="xs" c="red" ta="center" role="alert">
          {t(`profile.picture.problem.${change.problem}`)}
        </Text>
      )}
    </Stack>
  );
}
