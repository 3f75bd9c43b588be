/** The portal's support screens (issue 14): `/support` and `/apis/{apiId}/support`, one lazy chunk. */
export { ApiSupportPage, SupportPage } from './components/support-page';
