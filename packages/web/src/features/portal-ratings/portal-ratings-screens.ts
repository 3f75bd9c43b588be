/** The ratings screen of an API in the portal, its own chunk. */
export { RatingsPage } from './components/ratings-page';
