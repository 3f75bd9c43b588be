export {
  ApiAnalyticsPage,
  ApplicationAnalyticsPage,
  PlatformDashboardPage,
} from './components/analytics-pages';
