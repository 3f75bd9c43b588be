/** The client registration screens of the settings area (lazily loaded together). */
export { ClientRegistrationListPage } from './components/client-registration-list-page';
export { ClientRegistrationPage } from './components/client-registration-page';
