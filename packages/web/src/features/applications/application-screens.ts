/** The application screens (lazily loaded together). */
export { ApplicationListPage } from './components/application-list-page';
export { ApplicationCreatePage } from './components/application-create-page';
export { ApplicationGeneralPage } from './components/application-general-page';
export { ApplicationMembersPage } from './components/application-members-page';
