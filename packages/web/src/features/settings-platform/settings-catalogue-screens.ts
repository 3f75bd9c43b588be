/** Settings > Tenants, Metadata, Top APIs and API Portal Headers (loaded on first use). */
export { TenantsPage } from './tenants/tenants-page';
export { MetadataPage } from './metadata/metadata-page';
export { TopApisPage } from './top-apis/top-apis-page';
export { ApiHeadersPage } from './api-headers/api-headers-page';
