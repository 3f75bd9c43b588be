import type { TranslationKey } from '../../../../shared/i18n/keys';
import { Button, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCheck, IconDownload, IconUpload, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useApiPermissions } from '../../../../shared/session/api-permissions';
import { useSession } from '../../../../shared/session/current-user';
import { isAdmin } from '../../../../shared/session/permissions';
import { useFrameApi } from '../../api/get-api';
import { useApiQuality } from '../../api/get-apis';
import { useQualityEnabled } from '../list/api-list-page';
import { QualityRing } from '../quality-badge';
import { DangerZone } from './danger-zone';
import { ExportDialog, ImportDialog } from './export-import-dialogs';
import { GeneralForm } from './general-form';

/** management.apis.detail.portal.general (`/management/apis/{apiId}/portal`). */
export function GeneralPage() {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const { user } = useSession();
  const permissions = useApiPermissions(apiId);
  const [dialog, setDialog] = useState<'export' | 'import' | null>(null);
  const canUpdate = permissions.has('api-definition-u');
  const canEditContextPath =
    canUpdate &&
    (isAdmin(user) || (api.owner?.id === user?.id && permissions.has('api-gateway_definition-u')));

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Title order={2} size="h3">
          {t('apis.general.title')}
        </Title>
        <Group gap="sm">
          {permissions.has('api-definition-r') && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => setDialog('export')}
            >
              {t('apis.export.open')}
            </Button>
          )}
          {canUpdate && (
            <Button
              variant="default"
              leftSection={<IconUpload size={16} />}
              onClick={() => setDialog('import')}
            >
              {t('apis.import.open')}
            </Button>
          )}
        </Group>
      </Group>
      <QualityCard apiId={apiId} />
      {/* A change from elsewhere (import, rollback, start/stop) gives the form the API as it is now. */}
      <GeneralForm
        key={api.updated_at}
        api={api}
        canUpdate={canUpdate}
        canEditContextPath={canEditContextPath}
        canReadDefinition={permissions.has('api-definition-r')}
      />
      {canUpdate && <DangerZone api={api} canDelete={permissions.has('api-definition-d')} />}
      <ExportDialog api={api} opened={dialog === 'export'} onClose={() => setDialog(null)} />
      <ImportDialog api={api} opened={dialog === 'import'} onClose={() => setDialog(null)} />
    </Stack>
  );
}

/** The quality score with the metrics passed, when the platform computes it. */
function QualityCard({ apiId }: { apiId: string }) {
  const { t } = useTranslation();
  const enabled = useQualityEnabled();
  const quality = useApiQuality(apiId, enabled);
  if (!enabled || !quality.data) return null;
  const metrics = Object.entries(quality.data.metrics_passed);
  return (
    <Paper withBorder radius="md" p="lg">
      <Group gap="xl" align="center">
        <QualityRing score={quality.data.score} />
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t('apis.quality.title')}
          </Title>
          <List spacing={4} size="sm" center>
            {metrics.map(([metric, passed]) => (
              <List.Item
                key={metric}
                icon={
                  <ThemeIcon
                    size={18}
                    radius="xl"
                    color={passed ? 'teal' : 'gray'}
                    variant={passed ? 'filled' : 'light'}
                  >
                    {passed ? <IconCheck size={12} /> : <IconX size={12} />}
                  </ThemeIcon>
                }
              >
                <Text size="sm" c={passed ? undefined : 'dimmed'}>
                  {t(`apis.quality.metrics.${metric}` as TranslationKey)}
                </Text>
              </List.Item>
            ))}
          </List>
        </Stack>
      </Group>
    </Paper>
  );
}
