/** The documentation screens of an API, one chunk for the list, the edit page and the viewer. */
export { PagesListPage } from './components/pages-list-page';
export { PageEditPage } from './components/page-edit-page';
export { PageViewPage } from './components/page-view-page';
export { PagesImportPage } from './components/pages-import-page';
