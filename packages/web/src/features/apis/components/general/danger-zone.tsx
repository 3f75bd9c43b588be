import { Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { notifySuccess } from '../../notify';
import { useDeleteApi, useUpdateApi } from '../../api/change-api';
import type { Api } from '../../api/types';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import { useStartStop } from '../frame/api-header';

/**
 * The Danger Zone: start/stop (confirmed), the visibility switch (saved at once), and the deletion (only
 * a stopped API, its name typed; the server refuses one with active plans or subscriptions).
 */
export function DangerZone({ api, canDelete }: { api: Api; canDelete: boolean }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const startStop = useStartStop(api);
  const update = useUpdateApi(api.id);
  const remove = useDeleteApi(api.id);
  const [deleting, setDeleting] = useState(false);
  const started = api.state === 'STARTED';
  return (
    <Paper withBorder radius="md" p="lg" style={{ borderColor: 'var(--mantine-color-red-4)' }}>
      <Stack gap="md">
        <Title order={2} size="h4" c="red.9">
          {t('apis.danger.title')}
        </Title>
        <Row
          title={started ? t('apis.danger.stopTitle') : t('apis.danger.startTitle')}
          text={started ? t('apis.danger.stopText') : t('apis.danger.startText')}
        >
          <Button
            color={started ? 'red' : 'teal'}
            variant="light"
            onClick={() => startStop.ask(started ? 'STOP' : 'START')}
          >
            {started ? t('apis.lifecycle.stop') : t('apis.lifecycle.start')}
          </Button>
        </Row>
        <Row title={t('apis.danger.visibilityTitle')} text={t('apis.danger.visibilityText')}>
          <Switch
            checked={api.visibility === 'PUBLIC'}
            disabled={update.isPending}
            label={api.visibility === 'PUBLIC' ? t('apis.visibility.public') : t('apis.visibility.private')}
            onChange={(event) => {
              const visibility = event.currentTarget.checked ? 'PUBLIC' : 'PRIVATE';
              update.mutate({ visibility }, { onSuccess: () => notifySuccess('apis.general.saved') });
            }}
          />
        </Row>
        {canDelete && (
          <Row
            title={t('apis.danger.deleteTitle')}
            text={started ? t('apis.danger.deleteStarted') : t('apis.danger.deleteText')}
          >
            <Button color="red" disabled={started} onClick={() => setDeleting(true)}>
              {t('apis.danger.delete')}
            </Button>
          </Row>
        )}
      </Stack>
      {startStop.dialog}
      <ConfirmDialog
        opened={deleting}
        title={t('apis.danger.deleteConfirmTitle')}
        confirmLabel={t('apis.danger.delete')}
        color="red"
        typed={api.name}
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              setDeleting(false);
              notifySuccess('apis.danger.deleted', { name: api.name });
              void navigate('/management/apis');
            },
          })
        }
      >
        <ConfirmText>{t('apis.danger.deleteQuestion', { name: api.name })}</ConfirmText>
      </ConfirmDialog>
    </Paper>
  );
}

function Row({ title, text, children }: { title: string; text: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="lg">
      <div>
        <Text fw={600} size="sm">
          {title}
        </Text>
        <Text size="sm" c="dimmed">
          {text}
        </Text>
      </div>
      <div style={{ flexShrink: 0 }}>{children}</div>
    </Group>
  );
}
