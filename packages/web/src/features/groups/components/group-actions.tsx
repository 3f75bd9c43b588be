import { Button, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { notifySuccess } from '../../../shared/ui/notify';
import type { DependentType, GroupEntity } from '../api/groups';
import { useAssociateAll } from '../api/groups';

/** Actions tab: associate the group to every existing API or application (management-group-u). */
export function GroupActions({ group }: { group: GroupEntity }) {
  const { t } = useTranslation();
  const { user } = useSession();
  const associate = useAssociateAll(group.id);
  const [asked, setAsked] = useState<DependentType | null>(null);
  const allowed = hasPermission(user, 'management-group-u');
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('settingsGroups.actions.hint')}
      </Text>
      <Group>
        <Button variant="light" disabled={!allowed} onClick={() => setAsked('api')}>
          {t('settingsGroups.actions.api')}
        </Button>
        <Button variant="light" disabled={!allowed} onClick={() => setAsked('application')}>
          {t('settingsGroups.actions.application')}
        </Button>
      </Group>
      <ConfirmDialog
        opened={asked !== null}
        title={t(
          asked === 'application' ? 'settingsGroups.actions.application' : 'settingsGroups.actions.api',
        )}
        confirmLabel={t('settingsGroups.actions.confirm')}
        loading={associate.isPending}
        onClose={() => setAsked(null)}
        onConfirm={() =>
          asked &&
          associate.mutate(asked, {
            onSuccess: () => {
              notifySuccess(
                asked === 'api' ? 'settingsGroups.actions.apiDone' : 'settingsGroups.actions.applicationDone',
                {
                  name: group.name,
                },
              );
              setAsked(null);
            },
          })
        }
      >
        <ConfirmText>
          {t(
            asked === 'application'
              ? 'settingsGroups.actions.applicationText'
              : 'settingsGroups.actions.apiText',
            {
              name: group.name,
            },
          )}
        </ConfirmText>
      </ConfirmDialog>
    </Stack>
  );
}
