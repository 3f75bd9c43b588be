export { GroupsPage } from './components/groups-page';
export { GroupPage } from './components/group-page';
