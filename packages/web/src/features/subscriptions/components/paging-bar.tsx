import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { SUBSCRIPTION_PAGE_SIZES } from '../filters';

/** Page links and the page size (10, 25, 50, 75, 100) of a subscription list. */
export function PagingBar({
  page,
  size,
  total,
  onPage,
  onSize,
}: {
  page: number;
  size: number;
  total: number;
  onPage: (page: number) => void;
  onSize: (size: number) => void;
}) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / size));
  const first = total === 0 ? 0 : (page - 1) * size + 1;
  const last = Math.min(total, page * size);
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <Group gap="xs">
        <Select
          aria-label={t('subscriptions.list.pageSize')}
          data={SUBSCRIPTION_PAGE_SIZES.map((s) => ({ value: String(s), label: String(s) }))}
          value={String(size)}
          onChange={(value) => value && onSize(Number(value))}
          allowDeselect={false}
          w={84}
          size="xs"
        />
        <Text size="sm" c="dimmed">
          {t('subscriptions.list.range', { first, last, total })}
        </Text>
      </Group>
      {pages > 1 && (
        <Pagination
          total={pages}
          value={page}
          onChange={onPage}
          size="sm"
          getControlProps={(control) =>
            control === 'previous'
              ? { 'aria-label': t('subscriptions.list.previousPage') }
              : control === 'next'
                ? { 'aria-label': t('subscriptions.list.nextPage') }
                : {}
          }
          getItemProps={(p) => ({ 'aria-label': t('subscriptions.list.page', { page: p }) })}
        />
      )}
    </Group>
  );
}
