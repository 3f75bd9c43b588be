import {
  ActionIcon,
  Button,
  Group,
  Paper,
  Rating as Stars,
  Stack,
  Text,
  Textarea,
  Tooltip,
} from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateText } from '../../../shared/ui/date-text';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Rating } from '../api/ratings';
import { useAnswerRating, useDeleteAnswer, useDeleteRating } from '../api/ratings';

const COMMENT_MAX = 1024;

export interface RatingRights {
  deleteRating: boolean;
  answer: boolean;
  deleteAnswer: boolean;
}

/** One rating: rate, title, comment, author and date, its answers, and what the user may do with them. */
export function RatingItem({
  apiId,
  rating,
  rights,
}: {
  apiId: string;
  rating: Rating;
  rights: RatingRights;
}) {
  const { t } = useTranslation();
  const remove = useDeleteRating(apiId);
  const answer = useAnswerRating(apiId);
  const removeAnswer = useDeleteAnswer(apiId);
  const [text, setText] = useState('');
  const tooLong = text.length > COMMENT_MAX;

  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="article"
      aria-label={t('portalRatings.list.item', { name: rating.userDisplayName })}
    >
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Stars
            value={rating.rate}
            readOnly
            role="img"
            size="sm"
            aria-label={t('portalApi.rating', { rate: rating.rate })}
          />
          {rating.title && (
            <Text fw={600} component="h3" m={0} size="md">
              {rating.title}
            </Text>
          )}
          {rating.comment && <Text style={{ whiteSpace: 'pre-wrap' }}>{rating.comment}</Text>}
          <Text size="sm" c="dimmed">
            {t('portalRatings.list.by', { name: rating.userDisplayName })} ·{' '}
            <DateText value={rating.createdAt} c="dimmed" />
          </Text>
        </Stack>
        {rights.deleteRating && (
          <Tooltip label={t('portalRatings.list.delete')}>
            <ActionIcon
              variant="subtle"
              color="red"
              aria-label={t('portalRatings.list.delete')}
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(rating.id, { onSuccess: () => notifySuccess('portalRatings.toast.deleted') })
              }
            >
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        )}
      </Group>
      {(rating.answers ?? []).length > 0 && (
        <Stack gap="xs" mt="sm" pl="md" style={{ borderLeft: '3px solid var(--mantine-color-blue-3)' }}>
          {rating.answers!.map((a) => (
            <Group key={a.id} justify="space-between" align="flex-start" wrap="nowrap">
              <div>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{a.comment}</Text>
                <Text size="sm" c="dimmed">
                  {t('portalRatings.list.answeredBy', { name: a.userDisplayName })} ·{' '}
                  <DateText value={a.createdAt} c="dimmed" />
                </Text>
              </div>
              {rights.deleteAnswer && (
                <ActionIcon
                  variant="subtle"
                  color="red"
                  aria-label={t('portalRatings.list.deleteAnswer')}
                  onClick={() =>
                    removeAnswer.mutate(
                      { ratingId: rating.id, answerId: a.id },
                      { onSuccess: () => notifySuccess('portalRatings.toast.answerDeleted') },
                    )
                  }
                >
                  <IconTrash size={16} />
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      )}
      {rights.answer && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!text.trim() || tooLong) return;
            answer.mutate(
              { ratingId: rating.id, comment: text.trim() },
              {
                onSuccess: () => {
                  setText('');
                  notifySuccess('portalRatings.toast.answerCreated');
                },
              },
            );
          }}
        >
          <Group align="flex-end" mt="sm" wrap="nowrap">
            <Textarea
              label={t('portalRatings.list.answerLabel')}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
              error={tooLong ? t('validation.tooLong') : null}
              autosize
              minRows={1}
              style={{ flex: 1 }}
            />
            <Button
              type="submit"
              variant="light"
              disabled={!text.trim() || tooLong}
              loading={answer.isPending}
            >
              {t('portalRatings.list.answer')}
            </Button>
          </Group>
        </form>
      )}
    </Paper>
  );
}
