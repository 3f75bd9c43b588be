import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from './toasts';

/** Where the toasts show: bottom right. Loaded with the first toast (see App and toast-demand). */
export function ToastContainer() {
  return <Notifications position="bottom-right" zIndex={3000} limit={5} autoClose={TOAST_DURATION} />;
}
