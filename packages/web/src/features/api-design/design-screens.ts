/** The design screens of an API (console-apis.md 2.6), loaded together on demand. */
export { PathMappingsPage } from './path-mappings-page';
export { PoliciesPage } from './policies-page';
export { PropertiesPage } from './properties-page';
export { ResourcesPage } from './resources-page';
