import { Button, Checkbox, Group, Paper, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { TranslationKey } from '../../../shared/i18n/keys';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Hook, NotificationScope, NotificationSetting, Notifier } from '../api/notification-settings';
import { useDeleteNotificationSetting, useSaveNotificationSetting } from '../api/notification-settings';
import { hooksByCategory, settingConfigError } from '../notification-rules';

/**
 * One notification setting: its hooks by category as checkboxes, and for a generic setting the
 * notifier's config (email addresses or a webhook URL, with the system proxy for webhooks).
 */
export function NotificationForm({
  scope,
  setting,
  hooks,
  notifiers,
  canUpdate,
  canDelete,
}: {
  scope: NotificationScope;
  setting: NotificationSetting;
  hooks: readonly Hook[];
  notifiers: readonly Notifier[];
  canUpdate: boolean;
  canDelete: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const save = useSaveNotificationSetting(scope);
  const remove = useDeleteNotificationSetting(scope);
  const [selected, setSelected] = useState(() => new Set(setting.hooks));
  const [config, setConfig] = useState(setting.config ?? '');
  const [useSystemProxy, setUseSystemProxy] = useState(setting.useSystemProxy ?? false);
  const [touched, setTouched] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const portal = setting.config_type === 'PORTAL';
  const notifier = notifiers.find((n) => n.id === setting.notifier);
  const configError = touched ? settingConfigError(setting, config) : null;

  const toggle = (id: string, on: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const submit = () => {
    setTouched(true);
    if (settingConfigError(setting, config)) return;
    save.mutate(
      {
        ...setting,
        hooks: hooks.filter((h) => selected.has(h.id)).map((h) => h.id),
        ...(portal ? {} : { config: config.trim(), useSystemProxy }),
      },
      { onSuccess: () => notifySuccess('notificationSettings.saved') },
    );
  };

  return (
    <Paper withBorder radius="md" p="md">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="md">
          <div>
            <Title order={3} size="h4">
              {portal ? t('notificationSettings.portalName') : setting.name}
            </Title>
            <Text size="sm" c="dimmed">
              {portal
                ? t('notificationSettings.portalHint')
                : t('notificationSettings.notifierLine', {
                    notifier: notifier?.name ?? setting.notifier ?? '',
                  })}
            </Text>
          </div>
          {!portal && notifier && (
            <>
              {notifier.type === 'EMAIL' ? (
                <Textarea
                  label={t('notificationSettings.emails')}
                  description={t('notificationSettings.emailsHint')}
                  value={config}
                  onChange={(e) => setConfig(e.currentTarget.value)}
                  error={configError ? t(configError as TranslationKey) : undefined}
                  readOnly={!canUpdate}
                  withAsterisk
                  autosize
                  minRows={2}
                />
              ) : (
                <TextInput
                  label={t('notificationSettings.webhookUrl')}
                  value={config}
                  onChange={(e) => setConfig(e.currentTarget.value)}
                  error={configError ? t(configError as TranslationKey) : undefined}
                  readOnly={!canUpdate}
                  withAsterisk
                  placeholder="https://"
                />
              )}
              {notifier.type === 'WEBHOOK' && (
                <Checkbox
                  label={t('notificationSettings.useSystemProxy')}
                  checked={useSystemProxy}
                  disabled={!canUpdate}
                  onChange={(e) => setUseSystemProxy(e.currentTarget.checked)}
                />
              )}
            </>
          )}
          {hooksByCategory(hooks).map(([category, list]) => (
            <fieldset key={category} style={{ border: 0, padding: 0, margin: 0 }}>
              <Text component="legend" fw={600} size="sm" mb="xs">
                {category}
              </Text>
              <Stack gap="xs">
                {list.map((hook) => (
                  <Checkbox
                    key={hook.id}
                    label={hook.label}
                    description={hook.description}
                    checked={selected.has(hook.id)}
                    disabled={!canUpdate}
                    onChange={(e) => toggle(hook.id, e.currentTarget.checked)}
                  />
                ))}
              </Stack>
            </fieldset>
          ))}
          {(canUpdate || (canDelete && !portal)) && (
            <Group justify="flex-end" gap="sm">
              {canDelete && !portal && setting.id && (
                <Button variant="default" color="red" onClick={() => setConfirming(true)}>
                  {t('notificationSettings.delete')}
                </Button>
              )}
              {canUpdate && (
                <Button type="submit" loading={save.isPending}>
                  {t('common.save')}
                </Button>
              )}
            </Group>
          )}
        </Stack>
      </form>
      <ConfirmDialog
        opened={confirming}
        title={t('notificationSettings.deleteTitle')}
        confirmLabel={t('notificationSettings.delete')}
        color="red"
        loading={remove.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          remove.mutate(setting.id!, {
            onSuccess: () => {
              setConfirming(false);
              notifySuccess('notificationSettings.deleted');
              void navigate('?', { replace: true });
            },
          })
        }
      >
        <ConfirmText>{t('notificationSettings.deleteText')}</ConfirmText>
      </ConfirmDialog>
    </Paper>
  );
}
