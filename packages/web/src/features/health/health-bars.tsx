import { Table, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ApiMetrics, HealthWindow } from './health-api';
import { HEALTH_WINDOWS, availabilityClass } from './health-api';
import classes from './health.module.css';

/** An availability: a bar of the floored percentage coloured by class, 3 decimals in the tooltip. */
function AvailabilityCell({ value }: { value: number | undefined }) {
  const { t } = useTranslation();
  if (value === undefined || value < 0)
    return (
      <Text size="sm" c="dimmed">
        {t('apiHealth.noData')}
      </Text>
    );
  const floored = Math.floor(value);
  return (
    <Tooltip label={`${value.toFixed(3)} %`} openDelay={200}>
      <div
        className={classes.bar}
        data-level={availabilityClass(value)}
        tabIndex={0}
        aria-label={`${value.toFixed(3)} %`}
      >
        <div className={classes.fill} style={{ width: `${floored}%` }} />
        <span className={classes.label}>{floored} %</span>
      </div>
    </Tooltip>
  );
}

function TimeCell({ value }: { value: number | undefined }) {
  const { t } = useTranslation();
  if (value === undefined || value < 0)
    return (
      <Text size="sm" c="dimmed">
        {t('apiHealth.noData')}
      </Text>
    );
  return <Text size="sm">{t('apiHealth.ms', { value: Math.round(value) })}</Text>;
}

/**
 * One figure per row (the global one first, then each endpoint or gateway) and per window: availability
 * bars or response times (section 9 colouring and rounding).
 */
export function HealthTable({
  metrics,
  kind,
  caption,
  name,
  withGlobal,
}: {
  metrics: ApiMetrics | undefined;
  kind: 'availability' | 'response_time';
  caption: string;
  name: (key: string, metadata: Record<string, string> | undefined) => string;
  withGlobal: boolean;
}) {
  const { t } = useTranslation();
  const Cell = kind === 'availability' ? AvailabilityCell : TimeCell;
  const rows = Object.keys(metrics?.buckets ?? {}).sort();
  const label = (w: HealthWindow) => t(`apiHealth.windows.${w}`);
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table verticalSpacing="xs" layout="fixed">
        <caption className={classes.caption}>{caption}</caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col" w="24%">
              {t('apiHealth.name')}
            </Table.Th>
            {HEALTH_WINDOWS.map((w) => (
              <Table.Th key={w} scope="col">
                {label(w)}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {withGlobal && rows.length > 0 && (
            <Table.Tr>
              <Table.Th scope="row">{t('apiHealth.global')}</Table.Th>
              {HEALTH_WINDOWS.map((w) => (
                <Table.Td key={w}>
                  <Cell value={metrics?.global[w]} />
                </Table.Td>
              ))}
            </Table.Tr>
          )}
          {rows.map((key) => (
            <Table.Tr key={key}>
              <Table.Th scope="row" fw={400}>
                <Text size="sm" truncate="end" title={name(key, metrics?.metadata[key])}>
                  {name(key, metrics?.metadata[key])}
                </Text>
              </Table.Th>
              {HEALTH_WINDOWS.map((w) => (
                <Table.Td key={w}>
                  <Cell value={metrics?.buckets[key]?.[w]} />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          {metrics && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={HEALTH_WINDOWS.length + 1}>
                <Text c="dimmed" ta="center" size="sm">
                  {t('apiHealth.noData')}
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
