import { useQuery } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useParams } from 'react-router';
import { apiPermissionsQueryOptions } from '../../../shared/session/api-permissions';
import { useSession } from '../../../shared/session/current-user';
import { hasPermission } from '../../../shared/session/permissions';
import { docsBase, PORTAL_DOCS } from '../api/pages';

/** True under the settings' portal documentation screens: the screens then show `portal/pages`. */
export const PortalDocsContext = createContext(false);

/**
 * The documentation a screen shows: an API's (its id from the route, api-documentation-c/u/d on it) or
 * the portal's (portal-documentation-c/u/d of the user). `ref` is what the page hooks take.
 */
export function useDocsScope() {
  const portal = useContext(PortalDocsContext);
  const { apiId = '' } = useParams();
  const { user } = useSession();
  const apiRights = useQuery({ ...apiPermissionsQueryOptions(apiId), enabled: !portal && !!apiId });
  const ref = portal ? PORTAL_DOCS : apiId;
  return {
    portal,
    ref,
    apiId: portal ? undefined : apiId,
    can: (right: 'c' | 'u' | 'd') =>
      portal
        ? hasPermission(user, `portal-documentation-${right}`)
        : (apiRights.data ?? []).includes(`api-documentation-${right}`),
    mediaUploadPath: `${docsBase(ref)}/media/upload`,
    contentPath: (pageId: string) => `${docsBase(ref)}/pages/${encodeURIComponent(pageId)}/content`,
  };
}
