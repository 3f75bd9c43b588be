/** The portal's subscription wizard, one lazy chunk (`/apis/{apiId}/subscribe`). */
export { SubscribePage } from './components/subscribe-page';
