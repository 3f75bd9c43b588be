/** The portal catalogue's screens (issue 14): one lazy chunk for /apis, /views and /views/{viewId}. */
export { ApisEntry, ApisPage } from './components/apis-page';
export { ViewsPage } from './components/views-page';
export { ViewPage } from './components/view-page';
