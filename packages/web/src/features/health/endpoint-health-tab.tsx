import { Stack, Switch, Text } from '@mantine/core';
import type { Endpoint, HealthCheckService } from '@portico/model';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useFrameApi } from '../apis/api/get-api';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { HealthCheckForm } from './health-check-form';
import { checkProblems, editableCheck } from './health-check-model';

/**
 * The Health-check tab of the endpoint editor: the endpoint inherits the API's check or has its own
 * (saved with the endpoint). Editing also needs api-health-c or api-health-u.
 */
export function EndpointHealthTab({
  endpoint,
  readOnly,
  onChange,
}: {
  endpoint: Endpoint;
  readOnly: boolean;
  onChange: (next: Endpoint) => void;
}) {
  const { t } = useTranslation();
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const locked = readOnly || !(permissions.has('api-health-c') || permissions.has('api-health-u'));
  const own = endpoint.healthcheck;
  const inherit = own?.inherit !== false;
  const check = editableCheck(inherit ? api.services['health-check'] : own);
  const set = (next: HealthCheckService) => onChange({ ...endpoint, healthcheck: next });
  return (
    <Stack gap="md">
      <Switch
        label={t('apiHealth.endpoint.inherit')}
        disabled={locked}
        checked={inherit}
        onChange={(e) =>
          set(e.currentTarget.checked ? { enabled: true, inherit: true } : { ...check, inherit: false })
        }
      />
      {inherit ? (
        <Text size="sm" c="dimmed">
          {api.services['health-check']?.enabled
            ? t('apiHealth.endpoint.inherited')
            : t('apiHealth.endpoint.inheritedOff')}
        </Text>
      ) : (
        <HealthCheckForm
          value={check}
          problems={checkProblems(check)}
          readOnly={locked}
          onChange={(next) => set({ ...next, inherit: false })}
        />
      )}
    </Stack>
  );
}
