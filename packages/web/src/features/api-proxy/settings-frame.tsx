import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../shared/i18n/keys';

/**
 * The frame of the proxy settings screens (details, CORS, deployments, failover): title, what the screen
 * does, the fields, and Reset and Save, enabled only when something changed (Save also when valid).
 */
export function SettingsFrame({
  title,
  description,
  children,
  readOnly,
  dirty,
  valid,
  saving,
  onSave,
  onReset,
}: {
  title: string;
  description: string;
  children: ReactNode;
  readOnly: boolean;
  dirty: boolean;
  valid: boolean;
  saving: boolean;
  onSave: () => void;
  onReset: () => void;
}) {
  const { t } = useTranslation();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        if (dirty && valid && !readOnly) onSave();
      }}
    >
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={2} size="h3">
            {title}
          </Title>
          <Text c="dimmed" size="sm">
            {description}
          </Text>
        </Stack>
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">{children}</Stack>
        </Paper>
        {!readOnly && (
          <Group justify="flex-end" gap="sm">
            <Button variant="default" disabled={!dirty || saving} onClick={onReset}>
              {t('common.reset')}
            </Button>
            <Button type="submit" disabled={!dirty || !valid} loading={saving}>
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** The translated message of a problem under `apiProxy.problems`, or undefined. */
export const problemText = (t: (key: TranslationKey) => string, problem: string | undefined) =>
  problem ? t(`apiProxy.problems.${problem}` as TranslationKey) : undefined;
