import type { ApiDefinition } from '@portico/model';
import { useParams } from 'react-router';
import { useUpdateApi } from '../apis/api/change-api';
import { useFrameApi } from '../apis/api/get-api';
import { notifySuccess } from '../apis/notify';
import type { TranslationKey } from '../../shared/i18n/keys';
import { useApiPermissions } from '../../shared/session/api-permissions';

/**
 * The API of the route and the save of a health-check configuration: `PUT apis/{id}` with If-Match (a
 * stale tag answers 412 and offers Refresh). Editing needs api-definition-u and api-health-c or -u.
 */
export function useHealthConfig() {
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const update = useUpdateApi(apiId);
  const save = (
    changes: { services?: ApiDefinition['services']; proxy?: ApiDefinition['proxy'] },
    message: TranslationKey,
  ) => update.mutate(changes, { onSuccess: () => notifySuccess(message) });
  return {
    apiId,
    api,
    base: `/management/apis/${encodeURIComponent(apiId)}`,
    canUpdate:
      permissions.has('api-definition-u') &&
      (permissions.has('api-health-c') || permissions.has('api-health-u')),
    saving: update.isPending,
    save,
  };
}
