export { RolesPage } from './components/roles-page';
export { RolePage } from './components/role-page';
export { RoleMembersPage } from './components/role-members-page';
