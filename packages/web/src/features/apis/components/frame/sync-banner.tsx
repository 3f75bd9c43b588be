import { Alert, Button, Group, Text } from '@mantine/core';
import { IconRefreshAlert } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../notify';
import { useDeployApi } from '../../api/change-api';
import { useApiState } from '../../api/get-apis';
import { ConfirmDialog, ConfirmText } from '../../../../shared/ui/confirm-dialog';

/**
 * 'API out of sync' with a 'deploy your API' link (api-definition-u): the API changed since its last
 * deployment. Deploying asks for a confirmation.
 */
export function SyncBanner({ apiId, apiName }: { apiId: string; apiName: string }) {
  const { t } = useTranslation();
  const state = useApiState(apiId);
  const deploy = useDeployApi(apiId);
  const [confirming, setConfirming] = useState(false);
  if (!state.data || state.data.is_synchronized) return null;
  return (
    <>
      <Alert
        color="yellow"
        variant="light"
        icon={<IconRefreshAlert size={20} />}
        title={t('apis.frame.outOfSync')}
        role="status"
      >
        <Group justify="space-between" gap="sm">
          <Text size="sm">{t('apis.frame.outOfSyncHint')}</Text>
          <Button size="xs" color="yellow" onClick={() => setConfirming(true)}>
            {t('apis.frame.deploy')}
          </Button>
        </Group>
      </Alert>
      <ConfirmDialog
        opened={confirming}
        title={t('apis.frame.deployTitle')}
        confirmLabel={t('apis.frame.deployConfirm')}
        loading={deploy.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          deploy.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifySuccess('apis.frame.deployed', { name: apiName });
            },
          })
        }
      >
        <ConfirmText>{t('apis.frame.deployQuestion', { name: apiName })}</ConfirmText>
      </ConfirmDialog>
    </>
  );
}
