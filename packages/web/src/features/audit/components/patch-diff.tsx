import { Box, Code, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { diffLines } from '../patch';

const LOOK = {
  added: { sign: '+', color: 'teal' },
  removed: { sign: '−', color: 'red' },
  changed: { sign: '~', color: 'blue' },
  moved: { sign: '→', color: 'gray' },
} as const;

/** An audit entry's JSON Patch as a readable diff: one coloured line per changed field. */
export function PatchDiff({ patch }: { patch: string | null }) {
  const { t } = useTranslation();
  const lines = diffLines(patch);
  if (lines.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('audit.noChange')}
      </Text>
    );
  return (
    <Stack gap={2} role="list" aria-label={t('audit.changes')}>
      {lines.map((line, index) => {
        const look = LOOK[line.kind];
        return (
          <Group
            key={index}
            gap="xs"
            wrap="nowrap"
            align="flex-start"
            role="listitem"
            data-diff={line.kind}
            px="xs"
            style={{ borderLeft: `3px solid var(--mantine-color-${look.color}-6)` }}
          >
            <Text ff="monospace" fw={700} c={`${look.color}.8`} aria-hidden>
              {look.sign}
            </Text>
            <Box style={{ minWidth: 0 }}>
              <Text size="sm" fw={500} component="span">
                {line.path}
              </Text>{' '}
              <Text size="xs" c="dimmed" component="span">
                {t(`audit.diff.${line.kind}`)}
              </Text>
              {line.value !== undefined && (
                <Code block mt={2} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 160 }}>
                  {line.value}
                </Code>
              )}
              {line.from !== undefined && (
                <Text size="xs" c="dimmed">
                  {t('audit.diff.from', { path: line.from })}
                </Text>
              )}
            </Box>
          </Group>
        );
      })}
    </Stack>
  );
}
