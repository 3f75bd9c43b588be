import { Avatar, Badge, Button, Group, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { IconShoppingCart } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { humanDate } from '../../../../shared/lib/dates';
import { notifySuccess } from '../../notify';
import { useChangeApiState } from '../../api/change-api';
import type { Api } from '../../api/types';
import { truncate } from '../../rules';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';
import { VisibilityIcon } from '../visibility-icon';

/** Asks before starting or stopping the API; the answer carries the new state and entity tag. */
export function useStartStop(api: Api) {
  const { t } = useTranslation();
  const change = useChangeApiState(api.id);
  const [asked, setAsked] = useState<'START' | 'STOP' | null>(null);
  const dialog = (
    <ConfirmDialog
      opened={asked !== null}
      title={asked === 'STOP' ? t('apis.lifecycle.stopTitle') : t('apis.lifecycle.startTitle')}
      confirmLabel={asked === 'STOP' ? t('apis.lifecycle.stop') : t('apis.lifecycle.start')}
      color={asked === 'STOP' ? 'red' : 'blue'}
      loading={change.isPending}
      onClose={() => setAsked(null)}
      onConfirm={() =>
        asked &&
        change.mutate(asked, {
          onSuccess: (value) => {
            setAsked(null);
            notifySuccess(
              value.api.state === 'STARTED' ? 'apis.lifecycle.started' : 'apis.lifecycle.stopped',
              {
                name: api.name,
              },
            );
          },
        })
      }
    >
      <ConfirmText>
        {asked === 'STOP'
          ? t('apis.lifecycle.stopQuestion', { name: api.name })
          : t('apis.lifecycle.startQuestion', { name: api.name })}
      </ConfirmText>
    </ConfirmDialog>
  );
  return { ask: setAsked, dialog };
}

/**
 * The API frame's header: picture, name, version, visibility, description (150 characters), the
 * start/stop switch, owner, dates and context path; read-only members get a Subscribe button instead.
 */
export function ApiHeader({
  api,
  canUpdate,
  plansPath,
}: {
  api: Api;
  canUpdate: boolean;
  /** The plans page, when it exists (read-only members subscribe there). */
  plansPath: string | undefined;
}) {
  const { t } = useTranslation();
  const startStop = useStartStop(api);
  const started = api.state === 'STARTED';
  return (
    <Paper withBorder radius="md" p="lg">
      <Group align="flex-start" justify="space-between" wrap="nowrap" gap="lg">
        <Group align="flex-start" wrap="nowrap" gap="md">
          <Avatar
            src={api.picture_url}
            alt={t('apis.frame.picture', { name: api.name })}
            size={64}
            radius="md"
          />
          <Stack gap={4}>
            <Group gap="xs" align="center">
              <Title order={1} size="h3">
                {api.name}
              </Title>
              <Badge variant="light" color="gray" tt="none">
                {api.version}
              </Badge>
              <VisibilityIcon visibility={api.visibility} />
            </Group>
            {api.description && (
              <Text size="sm" c="dimmed" maw={640} title={api.description}>
                {truncate(api.description)}
              </Text>
            )}
            <Group gap="lg" mt={4}>
              <Meta label={t('apis.frame.owner')} value={api.owner?.displayName ?? '—'} />
              <Meta label={t('apis.frame.createdAt')} value={humanDate(api.created_at)} />
              {canUpdate && (
                <Meta
                  label={t('apis.frame.deployedAt')}
                  value={api.deployed_at ? humanDate(api.deployed_at) : t('apis.frame.neverDeployed')}
                />
              )}
              <Meta label={t('apis.frame.contextPath')} value={api.context_path} mono />
            </Group>
          </Stack>
        </Group>
        {canUpdate ? (
          <Switch
            size="md"
            checked={started}
            color="teal"
            label={started ? t('apis.lifecycle.stateStarted') : t('apis.lifecycle.stateStopped')}
            aria-label={t('apis.lifecycle.switch', { name: api.name })}
            onChange={() => startStop.ask(started ? 'STOP' : 'START')}
            styles={{ label: { fontWeight: 600 } }}
          />
        ) : (
          plansPath && (
            <Button component={Link} to={plansPath} leftSection={<IconShoppingCart size={16} />}>
              {t('apis.frame.subscribe')}
            </Button>
          )
        )}
      </Group>
      {startStop.dialog}
    </Paper>
  );
}

function Meta({ label, value, mono }: { label: string; value: string; mono?: boolean }) {
  return (
    <div>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" ff={mono ? 'monospace' : undefined}>
        {value}
      </Text>
    </div>
  );
}
