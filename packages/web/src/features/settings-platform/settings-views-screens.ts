/** Settings > Views (loaded on first use): the list and the form. */
export { ViewsPage } from './views/views-page';
export { ViewPage } from './views/view-page';
