import { Notifications } from '@mantine/notifications';
import { TOAST_DURATION } from './toasts';

/** Where the toasts show: bottom right. Loaded right after the first page (see App). */
export function ToastContainer() {
  return <Notifications position="bottom-right" zIndex={3000} limit={5} autoClose={TOAST_DURATION} />;
}
