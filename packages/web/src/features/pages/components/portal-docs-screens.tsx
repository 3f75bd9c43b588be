import { PagesImportPage } from './pages-import-page';
import { PageEditPage } from './page-edit-page';
import { PagesListPage } from './pages-list-page';
import { PageViewPage } from './page-view-page';
import { PortalDocsContext } from './docs-scope';

/**
 * Settings > Documentation (`/management/settings/documentation`): the portal's documentation
 * (`portal/pages`) through the same screens as an API's.
 */
export const PortalPagesListPage = () => (
  <PortalDocsContext.Provider value>
    <PagesListPage />
  </PortalDocsContext.Provider>
);
export const PortalPageEditPage = () => (
  <PortalDocsContext.Provider value>
    <PageEditPage />
  </PortalDocsContext.Provider>
);
export const PortalPageViewPage = () => (
  <PortalDocsContext.Provider value>
    <PageViewPage />
  </PortalDocsContext.Provider>
);
export const PortalPagesImportPage = () => (
  <PortalDocsContext.Provider value>
    <PagesImportPage />
  </PortalDocsContext.Provider>
);
