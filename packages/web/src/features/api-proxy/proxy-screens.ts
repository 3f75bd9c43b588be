/** The proxy screens of an API (console-apis.md 2.5), loaded together on demand. */
export { CorsPage } from './cors-page';
export { DeploymentsPage } from './deployments-page';
export { DetailsPage } from './details-page';
export { DiscoveryPage } from './discovery-page';
export { EndpointPage } from './endpoint-page';
export { EndpointsPage } from './endpoints-page';
export { FailoverPage } from './failover-page';
export { GroupPage } from './group-page';
export { TemplatePage } from './template-page';
export { TemplatesPage } from './templates-page';
