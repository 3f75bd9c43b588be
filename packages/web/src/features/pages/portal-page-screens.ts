/** The portal's documentation screens of the settings, one chunk. */
export {
  PortalPageEditPage,
  PortalPagesImportPage,
  PortalPagesListPage,
  PortalPageViewPage,
} from './components/portal-docs-screens';
