export { ApiAuditPage, PlatformAuditPage } from './components/audit-page';
