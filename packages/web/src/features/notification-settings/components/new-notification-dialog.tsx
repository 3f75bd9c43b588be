import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { schemaResolver, useForm } from '@mantine/form';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { translatedInput } from '../../../shared/ui/translated-input';
import type { NotificationScope, Notifier } from '../api/notification-settings';
import { useCreateNotificationSetting } from '../api/notification-settings';
import { newNotificationSchema } from '../notification-rules';
import { DialogForm } from '../../../shared/ui/dialog-form';

/** New notification: a name and a notifier (EMAIL or WEBHOOK); the new setting is then selected. */
export function NewNotificationDialog({
  scope,
  notifiers,
  opened,
  onClose,
}: {
  scope: NotificationScope;
  notifiers: readonly Notifier[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const create = useCreateNotificationSetting(scope);
  const form = useForm({
    initialValues: { name: '', notifier: '' },
    validate: schemaResolver(newNotificationSchema, { sync: true }),
  });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit((values) =>
    create.mutate(
      {
        name: values.name.trim(),
        config_type: 'GENERIC',
        notifier: values.notifier,
        hooks: [],
        ...(scope.type === 'PORTAL' ? {} : { referenceType: scope.type, referenceId: scope.id }),
      },
      {
        onSuccess: (setting) => {
          close();
          if (setting.id) void navigate(`?notificationId=${encodeURIComponent(setting.id)}`);
        },
      },
    ),
  );
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('notificationSettings.newNotification')}
      centered
      closeButtonProps={{ 'aria-label': t('common.closeDialog') }}
    >
      <DialogForm onSubmit={submit} noValidate>
        <Stack gap="md">
          <TextInput
            label={t('notificationSettings.name')}
            withAsterisk
            data-autofocus
            {...translatedInput(form.getInputProps('name'), t)}
          />
          <Select
            label={t('notificationSettings.notifier')}
            withAsterisk
            allowDeselect={false}
            data={notifiers.map((n) => ({ value: n.id, label: `${n.name} (${n.type})` }))}
            {...translatedInput(form.getInputProps('notifier'), t)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={create.isPending}>
              {t('notificationSettings.create')}
            </Button>
          </Group>
        </Stack>
      </DialogForm>
    </Modal>
  );
}
