import { ActionIcon, Button, Group, Select, Tooltip } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateTimeField } from '../../../shared/ui/date-time-field';
import type { TimeframeId, Window } from '../timeframe';
import { REFRESH_CHOICES, TIMEFRAMES, shownTimeframe, windowOf } from '../timeframe';

const CUSTOM = 'custom';

/** Quick ranges, a custom from/to, refresh now and auto-refresh (off, 5 s, 10 s, 30 s). */
export function TimeframeBar({
  window: w,
  onWindow,
  refresh,
  onRefresh,
  onRefreshEvery,
}: {
  window: Window;
  onWindow: (w: Window) => void;
  refresh: number;
  onRefresh: () => void;
  onRefreshEvery: (seconds: number) => void;
}) {
  const { t } = useTranslation();
  // A window set after the page opened ended lately; one older than that is judged against the opening.
  const [opened] = useState(() => Date.now());
  const quick = shownTimeframe(w, Math.max(opened, w.to));
  const [custom, setCustom] = useState<{ from: number | null; to: number | null } | null>(null);
  const choice = custom ? CUSTOM : (quick?.id ?? CUSTOM);
  const invalid = custom !== null && (custom.from === null || custom.to === null || custom.from >= custom.to);
  return (
    <Group align="flex-end" gap="sm" wrap="wrap">
      <Select
        label={t('dashboards.timeframe.label')}
        data={[
          ...TIMEFRAMES.map((tf) => ({ value: tf.id, label: t(`dashboards.timeframe.ranges.${tf.id}`) })),
          { value: CUSTOM, label: t('dashboards.timeframe.custom') },
        ]}
        value={choice}
        allowDeselect={false}
        onChange={(value) => {
          if (value === CUSTOM) setCustom({ from: w.from, to: w.to });
          else if (value) {
            setCustom(null);
            onWindow(windowOf(value as TimeframeId, Date.now()));
          }
        }}
        w={200}
      />
      {(custom || !quick) && (
        <>
          <DateTimeField
            label={t('dashboards.timeframe.from')}
            value={custom?.from ?? w.from}
            onChange={(from) => setCustom({ from, to: custom?.to ?? w.to })}
            clearable={false}
            max={custom?.to ?? w.to}
          />
          <DateTimeField
            label={t('dashboards.timeframe.to')}
            value={custom?.to ?? w.to}
            onChange={(to) => setCustom({ from: custom?.from ?? w.from, to })}
            clearable={false}
            min={custom?.from ?? w.from}
          />
          {custom && (
            <Button
              disabled={invalid}
              onClick={() => {
                onWindow({ from: custom.from!, to: custom.to! });
                setCustom(null);
              }}
            >
              {t('dashboards.timeframe.apply')}
            </Button>
          )}
        </>
      )}
      <Tooltip label={t('dashboards.timeframe.refresh')}>
        <ActionIcon
          variant="default"
          size="lg"
          aria-label={t('dashboards.timeframe.refresh')}
          onClick={onRefresh}
        >
          <IconRefresh size={18} />
        </ActionIcon>
      </Tooltip>
      <Select
        label={t('dashboards.timeframe.autoRefresh')}
        data={REFRESH_CHOICES.map((s) => ({
          value: String(s),
          label: s === 0 ? t('dashboards.timeframe.off') : t('dashboards.timeframe.every', { seconds: s }),
        }))}
        value={String(refresh)}
        allowDeselect={false}
        onChange={(value) => onRefreshEvery(Number(value ?? 0))}
        w={150}
      />
    </Group>
  );
}
