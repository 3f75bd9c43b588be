import { useParams } from 'react-router';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { useUpdateApi } from '../apis/api/change-api';
import { useFrameApi } from '../apis/api/get-api';
import { useApplication } from '../applications/api/applications';
import type { LogsScope } from './api/logs';
import { useLogFilterOptions } from './api/logs';
import { LogDetailScreen } from './components/log-detail-screen';
import { LoggingScreen } from './components/logging-screen';
import { LogsScreen } from './components/logs-screen';

const apiBase = (apiId: string) => `/management/apis/${encodeURIComponent(apiId)}`;

/** The API's logs (`/management/apis/{apiId}/logs`, api-log-r). */
export function ApiLogsPage() {
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const scope: LogsScope = { kind: 'api', id: apiId };
  return (
    <LogsScreen
      scope={scope}
      name={api.name}
      configureHref={permissions.has('api-log-u') ? `${apiBase(apiId)}/logs/configure` : undefined}
    />
  );
}

/** One log of the API (`/management/apis/{apiId}/logs/{logId}?timestamp`, api-log-r). */
export function ApiLogPage() {
  const { apiId = '', logId = '' } = useParams();
  const permissions = useApiPermissions(apiId);
  return (
    <LogDetailScreen
      scope={{ kind: 'api', id: apiId }}
      logId={logId}
      configureHref={permissions.has('api-log-u') ? `${apiBase(apiId)}/logs/configure` : undefined}
      {...(permissions.has('api-subscription-r')
        ? { subscriptionHref: (id: string) => `${apiBase(apiId)}/subscriptions/${encodeURIComponent(id)}` }
        : {})}
    />
  );
}

/** The API's logging configuration (`/management/apis/{apiId}/logs/configure`, api-log-u to save). */
export function ApiLoggingPage() {
  const { apiId = '' } = useParams();
  const { api } = useFrameApi(apiId);
  const permissions = useApiPermissions(apiId);
  const update = useUpdateApi(apiId);
  const options = useLogFilterOptions({ kind: 'api', id: apiId });
  return (
    <LoggingScreen
      key={`${api.proxy.logging?.mode ?? 'NONE'}|${api.proxy.logging?.condition ?? ''}`}
      proxy={api.proxy}
      canUpdate={permissions.has('api-log-u')}
      saving={update.isPending}
      onSave={(proxy, onSaved) => update.mutate({ proxy }, { onSuccess: onSaved })}
      plans={options.data?.plans ?? []}
      applications={options.data?.consumers ?? []}
    />
  );
}

/** The application's logs (`/management/applications/{applicationId}/logs`, application-log-r). */
export function ApplicationLogsPage() {
  const { applicationId = '' } = useParams();
  const application = useApplication(applicationId);
  return (
    <LogsScreen scope={{ kind: 'application', id: applicationId }} name={application.data?.name ?? ''} />
  );
}

/** One log of the application (`/management/applications/{applicationId}/logs/{logId}?timestamp`). */
export function ApplicationLogPage() {
  const { applicationId = '', logId = '' } = useParams();
  return <LogDetailScreen scope={{ kind: 'application', id: applicationId }} logId={logId} />;
}
