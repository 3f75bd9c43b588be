export { ApiMessagesPage, PlatformMessagesPage } from './components/messages-pages';
