import { Button, FileButton, Text } from '@mantine/core';
import { IconPhotoUp } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../../shared/config/config-context';
import { http } from '../../../shared/http';

/** The absolute URL of an uploaded image from the path the upload answers (`/management/.../media/{hash}`). */
export function mediaUrl(baseURL: string, path: string): string {
  return new URL(path, baseURL).toString();
}

/**
 * Image upload of the Markdown editor, shown only when media upload is enabled
 * (`portal.uploadMedia.enabled`): images only, refused above `portal.uploadMedia.maxSizeInOctet` with the
 * spec's message; the uploaded image's Markdown goes where the caret is.
 */
export function ImageUpload({
  uploadPath,
  onUploaded,
}: {
  /** `apis/{apiId}/media/upload` or `portal/media/upload`. */
  uploadPath: string;
  onUploaded: (markdown: string) => void;
}) {
  const { t } = useTranslation();
  const config = useConfig();
  const { enabled, maxSizeInOctet } = config.portal.uploadMedia;
  const [error, setError] = useState<string | null>(null);
  const upload = useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file, file.name);
      return http.post<string>(uploadPath, body, { responseType: 'text' });
    },
    onSuccess: (path, file) => {
      const alt = file.name.replace(/\.[^.]+$/, '').replace(/[[\]]/g, '');
      onUploaded(`![${alt}](${mediaUrl(config.baseURL, path.trim())})`);
    },
  });
  if (!enabled) return null;
  const pick = (file: File | null) => {
    setError(null);
    if (!file) return;
    if (!file.type.startsWith('image/')) return setError(t('pages.media.notImage'));
    if (file.size > maxSizeInOctet) return setError(t('pages.media.tooBig', { max: maxSizeInOctet }));
    upload.mutate(file);
  };
  return (
    <div>
      <FileButton accept="image/png,image/jpeg,image/gif,image/webp" onChange={pick}>
        {(props) => (
          <Button
            {...props}
            variant="default"
            loading={upload.isPending}
            leftSection={<IconPhotoUp size={16} />}
            w="fit-content"
          >
            {t('pages.media.upload')}
          </Button>
        )}
      </FileButton>
      {error && (
        <Text c="red.8" size="sm" mt={4} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
