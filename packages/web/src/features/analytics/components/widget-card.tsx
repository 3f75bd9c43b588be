import { Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Widget } from '../dashboards';
import classes from './dashboard.module.css';

/** A widget's frame in the grid: title, subhead, its content or 'No data to display'. */
export function WidgetCard({
  widget,
  loading,
  empty,
  error,
  children,
}: {
  widget: Widget;
  loading: boolean;
  empty: boolean;
  error?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      className={classes.widget}
      style={{ gridColumn: `${widget.col + 1} / span ${widget.width}` }}
      component="section"
      aria-label={t(widget.title)}
      data-widget={widget.id}
      data-width={widget.width}
    >
      <Stack gap={2} mb="xs">
        <Group justify="space-between" wrap="nowrap">
          <Title order={3} size="h5">
            {t(widget.title)}
          </Title>
          {loading && <Loader size="xs" aria-label={t('dashboards.loading')} />}
        </Group>
        {widget.subhead && (
          <Text size="xs" c="dimmed">
            {t(widget.subhead)}
          </Text>
        )}
      </Stack>
      <div className={classes.body}>
        {error ? (
          <Text c="red.8" size="sm" ta="center" className={classes.empty}>
            {t('dashboards.error')}
          </Text>
        ) : empty && !loading ? (
          <Text c="dimmed" size="sm" ta="center" className={classes.empty}>
            {t('dashboards.noData')}
          </Text>
        ) : (
          children
        )}
      </div>
    </Card>
  );
}
