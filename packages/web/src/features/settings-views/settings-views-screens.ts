/** The views screens of the settings area (lazily loaded together). */
export { ViewsPage } from './components/views-page';
export { ViewPage } from './components/view-page';
