/** The proxy screens of an API (console-apis.md 2.5), loaded together on demand. */
export { EndpointPage } from './endpoint-page';
export { EndpointsPage } from './endpoints-page';
export { GroupPage } from './group-page';
