/** The API detail screens of the portal, one chunk: the frame, the overview and the documentation. */
export { ApiDetailFrame } from './components/api-detail-frame';
export { ApiOverview } from './components/api-overview';
export { ApiDocumentationPage } from '../portal-pages/portal-pages-screens';
