export { UsersPage } from './components/users-page';
export { UserPage } from './components/user-page';
export { UserNewPage } from './components/user-new-page';
