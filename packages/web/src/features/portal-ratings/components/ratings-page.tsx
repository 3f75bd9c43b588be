import { Alert, Center, Pagination, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useParams, useSearchParams } from 'react-router';
import { useConfig } from '../../../shared/config/config-context';
import { useSession } from '../../../shared/session/current-user';
import { PageLoader } from '../../../shared/ui/page-loader';
import {
  RATINGS_PAGE_SIZE,
  useCurrentRating,
  useRatingRights,
  useRatings,
  useRatingSummary,
} from '../api/ratings';
import { MyRatingForm } from './my-rating-form';
import { RatingItem } from './rating-item';
import { RatingSummaryCard } from './rating-summary-card';

/**
 * `/apis/{apiId}/ratings?pageNumber` (portal-and-platform.md 2, Ratings page): the summary, the user's
 * own rating, and the ratings 10 per page with their answers. Redirects home when rating is disabled.
 */
export function RatingsPage() {
  const config = useConfig();
  if (!config.portal.rating.enabled) return <Navigate to="/" replace />;
  return <EnabledRatingsPage mandatory={config.portal.rating.comment.mandatory} />;
}

function EnabledRatingsPage({ mandatory }: { mandatory: boolean }) {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('pageNumber') ?? '1', 10) || 1);
  const { user } = useSession();
  const [thanks, setThanks] = useState(false);
  const rights = useRatingRights(apiId, !!user);
  const rating = rights.data?.RATING ?? '';
  const answerRights = rights.data?.RATING_ANSWER ?? '';
  const current = useCurrentRating(apiId, !!user && rating.includes('R'));
  const summary = useRatingSummary(apiId);
  const ratings = useRatings(apiId, page);

  if (summary.isPending || ratings.isPending) return <PageLoader />;
  if (!summary.data || !ratings.data) return null;
  const pages = Math.ceil(ratings.data.totalElements / RATINGS_PAGE_SIZE);
  const mayRate = !!user && (rating.includes('C') || !!current.data);

  return (
    <Stack gap="lg">
      <Title order={1} size="h2">
        {t('portalRatings.title')}
      </Title>
      <RatingSummaryCard summary={summary.data} />
      {mayRate && current.isSuccess && (
        <MyRatingForm
          key={current.data ? `${current.data.id}-${current.data.updatedAt}` : 'new'}
          apiId={apiId}
          current={current.data}
          mandatory={mandatory}
          canUpdate={rating.includes('U')}
          onCreated={() => setThanks(true)}
        />
      )}
      {thanks && (
        <Alert
          color="green"
          withCloseButton
          onClose={() => setThanks(false)}
          closeButtonLabel={t('common.close')}
        >
          {t('portalRatings.form.thanks')}
        </Alert>
      )}
      {!user && <Text c="dimmed">{t('portalRatings.form.signIn')}</Text>}
      <Stack gap="sm" component="section" aria-labelledby="ratings-list-title">
        <Title order={2} size="h4" id="ratings-list-title">
          {t('portalRatings.list.title')}
        </Title>
        {ratings.data.content.length === 0 ? (
          <Text c="dimmed">{t('portalRatings.list.empty')}</Text>
        ) : (
          ratings.data.content.map((r) => (
            <RatingItem
              key={r.id}
              apiId={apiId}
              rating={r}
              rights={{
                deleteRating: rating.includes('D'),
                answer: answerRights.includes('C'),
                deleteAnswer: answerRights.includes('D'),
              }}
            />
          ))
        )}
        {pages > 1 && (
          <Center>
            <Pagination
              total={pages}
              value={page}
              onChange={(value) => setParams({ pageNumber: String(value) })}
              getControlProps={(control) => ({
                'aria-label': t(`portalRatings.list.${control}` as 'portalRatings.list.next'),
              })}
              getItemProps={(value) => ({ 'aria-label': t('portalRatings.list.page', { page: value }) })}
            />
          </Center>
        )}
      </Stack>
    </Stack>
  );
}
