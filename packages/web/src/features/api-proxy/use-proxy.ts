import type { Proxy } from '@portico/model';
import { useParams } from 'react-router';
import type { ApiChanges } from '../apis/api/change-api';
import { useUpdateApi } from '../apis/api/change-api';
import { useFrameApi } from '../apis/api/get-api';
import { notifySuccess } from '../apis/notify';
import { useApiPermissions } from '../../shared/session/api-permissions';

/**
 * The proxy of the API of the route, and its save: `PUT apis/{id}` with the whole proxy and If-Match (a
 * stale tag answers 412 and offers Refresh); the answer marks the API out of sync (the frame's banner).
 */
export function useApiProxy() {
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const update = useUpdateApi(apiId);
  const save = (proxy: Proxy, onSaved?: () => void) =>
    update.mutate(
      { proxy },
      {
        onSuccess: () => {
          notifySuccess('apiProxy.saved');
          onSaved?.();
        },
      },
    );
  /** Saves other fields of the API (sharding tags, response templates) the same way. */
  const saveApi = (changes: ApiChanges, onSaved?: () => void) =>
    update.mutate(changes, {
      onSuccess: () => {
        notifySuccess('apiProxy.saved');
        onSaved?.();
      },
    });
  return {
    apiId,
    api,
    proxy: api.proxy,
    base: `/management/apis/${encodeURIComponent(apiId)}`,
    canUpdate: permissions.has('api-definition-u'),
    canDiscover: permissions.has('api-definition-u') && permissions.has('api-discovery-c'),
    saving: update.isPending,
    save,
    saveApi,
  };
}
