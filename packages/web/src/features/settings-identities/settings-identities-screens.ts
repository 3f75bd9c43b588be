/** The identity provider screens of the settings area (lazily loaded together). */
export { IdentitiesListPage } from './components/identities-list-page';
export { IdentityPage } from './components/identity-page';
