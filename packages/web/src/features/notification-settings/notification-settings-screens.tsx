import { useParams } from 'react-router';
import { useApiPermissions } from '../../shared/session/api-permissions';
import { useApplicationPermissions } from '../../shared/session/application-permissions';
import { useSession } from '../../shared/session/current-user';
import { hasPermission } from '../../shared/session/permissions';
import { NotificationsPage } from './components/notifications-page';

/** `/management/apis/{apiId}/notifications`. */
export function ApiNotificationsPage() {
  const { apiId = '' } = useParams();
  const permissions = useApiPermissions(apiId);
  return <NotificationsPage key={apiId} scope={{ type: 'API', id: apiId }} has={permissions.has} />;
}

/** `/management/applications/{applicationId}/notifications`. */
export function ApplicationNotificationsPage() {
  const { applicationId = '' } = useParams();
  const permissions = useApplicationPermissions(applicationId);
  return (
    <NotificationsPage
      key={applicationId}
      scope={{ type: 'APPLICATION', id: applicationId }}
      has={permissions.has}
    />
  );
}

/** Settings > Notifications: the platform's. */
export function PlatformNotificationsPage() {
  const { user } = useSession();
  return <NotificationsPage scope={{ type: 'PORTAL' }} has={(p) => hasPermission(user, p)} />;
}
