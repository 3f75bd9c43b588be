import { Badge, Button, Group, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ConfirmDialog, ConfirmText } from '../../../shared/ui/confirm-dialog';
import { DateText } from '../../../shared/ui/date-text';
import { notifySuccess } from '../../../shared/ui/notify';
import type { Dictionary, DictionaryAction } from '../api/dictionaries';
import { useDeleteDictionary, useDictionaryAction } from '../api/dictionaries';

const DONE = {
  deploy: 'dictionaries.deployed',
  undeploy: 'dictionaries.undeployed',
  start: 'dictionaries.started',
  stop: 'dictionaries.stopped',
} as const;

/**
 * The lifecycle of a saved dictionary (2.3, 4): Deploy and Undeploy for manual ones; Start (disabled
 * when started) and Stop (disabled when stopped) for dynamic ones; Delete with a confirmation. Each
 * answer of the server replaces the dictionary.
 */
export function DictionaryActions({
  dictionary,
  canUpdate,
  canDelete,
  dirty,
}: {
  dictionary: Dictionary;
  canUpdate: boolean;
  canDelete: boolean;
  dirty: boolean;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const action = useDictionaryAction(dictionary.id);
  const remove = useDeleteDictionary();
  const [deleting, setDeleting] = useState(false);
  const run = (a: DictionaryAction) =>
    action.mutate(a, { onSuccess: (d) => notifySuccess(DONE[a], { name: d.name }) });
  const manual = dictionary.type === 'MANUAL';
  const busy = (a: DictionaryAction) => action.isPending && action.variables === a;
  return (
    <Group justify="space-between" wrap="wrap" gap="sm">
      <Group gap="sm">
        {manual ? (
          <Text size="sm" c="dimmed">
            {dictionary.deployed_at ? (
              <>
                {t('dictionaries.columns.deployedAt')}: <DateText value={dictionary.deployed_at} />
              </>
            ) : (
              t('dictionaries.notDeployed')
            )}
          </Text>
        ) : (
          <Badge variant="dot" color={dictionary.state === 'STARTED' ? 'green' : 'gray'}>
            {t(`dictionaries.states.${dictionary.state}`)}
          </Badge>
        )}
      </Group>
      <Group gap="sm">
        {canUpdate && manual && (
          <>
            <Button onClick={() => run('deploy')} loading={busy('deploy')} disabled={dirty}>
              {t('dictionaries.deploy')}
            </Button>
            <Button variant="default" onClick={() => run('undeploy')} loading={busy('undeploy')}>
              {t('dictionaries.undeploy')}
            </Button>
          </>
        )}
        {canUpdate && !manual && (
          <>
            <Button
              color="green"
              onClick={() => run('start')}
              loading={busy('start')}
              disabled={dictionary.state === 'STARTED'}
            >
              {t('dictionaries.start')}
            </Button>
            <Button
              variant="default"
              onClick={() => run('stop')}
              loading={busy('stop')}
              disabled={dictionary.state === 'STOPPED'}
            >
              {t('dictionaries.stop')}
            </Button>
          </>
        )}
        {canDelete && (
          <Button variant="light" color="red" onClick={() => setDeleting(true)}>
            {t('dictionaries.delete')}
          </Button>
        )}
      </Group>
      <ConfirmDialog
        opened={deleting}
        title={t('dictionaries.deleteTitle')}
        confirmLabel={t('dictionaries.deleteConfirm')}
        color="red"
        loading={remove.isPending}
        onClose={() => setDeleting(false)}
        onConfirm={() =>
          remove.mutate(dictionary.id, {
            onSuccess: () => {
              notifySuccess('dictionaries.deleted', { name: dictionary.name });
              void navigate('/management/settings/dictionaries');
            },
          })
        }
      >
        <ConfirmText>{t('dictionaries.deleteQuestion', { name: dictionary.name })}</ConfirmText>
      </ConfirmDialog>
    </Group>
  );
}
