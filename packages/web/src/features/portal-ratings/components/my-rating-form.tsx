import {
  Button,
  Group,
  Paper,
  Rating as Stars,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Rating } from '../api/ratings';
import { useSaveRating } from '../api/ratings';

const TITLE_MAX = 64;
const COMMENT_MAX = 1024;

/**
 * The signed-in user's rating (portal-and-platform.md 4, Rating): an existing rating is updated,
 * otherwise one is created. With a mandatory comment a star alone does not save until title and comment
 * are given; otherwise a star saves at once. A failed save puts back what is stored. Without
 * api-rating-u an existing rating is read-only. Its parent keys it by the stored rating's version, so a
 * saved rating starts it afresh.
 */
export function MyRatingForm({
  apiId,
  current,
  mandatory,
  canUpdate,
  onCreated,
}: {
  apiId: string;
  current: Rating | null;
  mandatory: boolean;
  canUpdate: boolean;
  /** A first rating saved without a mandatory comment: the page shows its thanks. */
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const save = useSaveRating(apiId);
  const [rate, setRate] = useState(current?.rate ?? 0);
  const [title, setTitle] = useState(current?.title ?? '');
  const [comment, setComment] = useState(current?.comment ?? '');

  const readOnly = !!current && !canUpdate;
  const titleError = title.length > TITLE_MAX ? t('validation.tooLong') : null;
  const commentError = comment.length > COMMENT_MAX ? t('validation.tooLong') : null;
  const textMissing = mandatory && (title.trim() === '' || comment.trim() === '');
  const valid = rate > 0 && !titleError && !commentError && !textMissing;

  // mutateAsync: a saved rating re-keys this form (a new instance), the promise still settles here.
  const submit = (input: { rate: number; title: string; comment: string }) =>
    save.mutateAsync({ id: current?.id, input }).then(
      () => {
        notifySuccess(current ? 'portalRatings.toast.updated' : 'portalRatings.toast.created');
        if (!current && !mandatory) onCreated();
      },
      () => {
        // The local rating is discarded: back to what is stored (the error shows through the catalogue).
        setRate(current?.rate ?? 0);
        setTitle(current?.title ?? '');
        setComment(current?.comment ?? '');
      },
    );

  const pickRate = (value: number) => {
    setRate(value);
    if (!mandatory && !readOnly) void submit({ rate: value, title, comment });
  };

  return (
    <Paper withBorder radius="md" p="lg" component="section" aria-labelledby="my-rating-title">
      <Title order={2} size="h4" id="my-rating-title" mb="sm">
        {t(current ? 'portalRatings.form.mine' : 'portalRatings.form.title')}
      </Title>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (valid && !readOnly) void submit({ rate, title: title.trim(), comment: comment.trim() });
        }}
      >
        <Stack gap="sm">
          <div role="radiogroup" aria-labelledby="my-rating-rate">
            <Text id="my-rating-rate" size="sm" fw={500} mb={4}>
              {t('portalRatings.form.rate')}
            </Text>
            <Stars
              value={rate}
              onChange={pickRate}
              readOnly={readOnly || save.isPending}
              size="lg"
              getSymbolLabel={(value) => t('portalRatings.stars', { count: value })}
            />
          </div>
          {readOnly ? (
            <>
              {current?.title && <Text fw={600}>{current.title}</Text>}
              {current?.comment && <Text>{current.comment}</Text>}
              <Text size="sm" c="dimmed">
                {t('portalRatings.form.readOnly')}
              </Text>
            </>
          ) : (
            <>
              <TextInput
                label={t('portalRatings.form.titleLabel')}
                value={title}
                onChange={(e) => setTitle(e.currentTarget.value)}
                required={mandatory}
                error={titleError}
                maxLength={TITLE_MAX + 1}
              />
              <Textarea
                label={t('portalRatings.form.commentLabel')}
                value={comment}
                onChange={(e) => setComment(e.currentTarget.value)}
                required={mandatory}
                error={commentError}
                autosize
                minRows={3}
                description={t('portalRatings.form.commentHint', { count: COMMENT_MAX - comment.length })}
              />
              <Group justify="flex-end">
                <Button type="submit" disabled={!valid} loading={save.isPending}>
                  {t(current ? 'portalRatings.form.update' : 'portalRatings.form.save')}
                </Button>
              </Group>
            </>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
