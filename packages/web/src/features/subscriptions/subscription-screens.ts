/** The subscription screens: the API's, the application's and My Tasks (lazily loaded together). */
export { ApiSubscriptionsPage } from './components/api-subscriptions-page';
export { ApiSubscriptionPage } from './components/api-subscription-page';
export { ApplicationSubscriptionsPage } from './components/application-subscriptions-page';
export { ApplicationSubscriptionPage } from './components/application-subscription-page';
export { TasksPage } from './components/tasks-page';
