import { Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CatalogueMessages } from '../http';
import type { ErrorNotice } from '../http';
import { i18n } from '../i18n/i18n';
import type { TranslationKey } from '../i18n/keys';
import { translateServerText } from '../i18n/server-messages';
import { demandToasts } from './toast-demand';

/** Toasts last 3 s (the 412 one 10 s); they show at the bottom right (see the Notifications provider). */
export const TOAST_DURATION = 3000;

export function notifySuccess(key: TranslationKey, values?: Record<string, string | number>): void {
  demandToasts();
  notifications.show({
    color: 'teal',
    message: i18n.t(key, values ?? {}),
    autoClose: TOAST_DURATION,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
  });
}

/** An error toast of a screen's own (not an HTTP error: those go through the catalogue). */
export function notifyFailure(key: TranslationKey, values?: Record<string, string | number>): void {
  demandToasts();
  notifications.show({
    color: 'red',
    message: i18n.t(key, values ?? {}),
    autoClose: TOAST_DURATION,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
  });
}

const errorToastId = (notice: ErrorNotice) => `error-${notice.key ?? notice.text}`;

/** Takes down the catalogue's toasts a sign-in answers ('Wrong user or password', 'Session expired'). */
export function hideSignInErrors(): void {
  for (const key of [CatalogueMessages.wrongCredentials, CatalogueMessages.sessionExpired]) {
    notifications.hide(errorToastId({ key }));
  }
}

/** An error toast of the catalogue: the error theme when a status is present. */
export function notifyError(notice: ErrorNotice): void {
  const text = notice.key ? i18n.t(notice.key) : translateServerText(notice.text ?? '');
  const id = errorToastId(notice);
  const action = notice.action;
  demandToasts();
  notifications.hide(id);
  notifications.show({
    id,
    color: notice.status ? 'red' : 'gray',
    title: notice.status ? i18n.t('errors.title') : undefined,
    autoClose: notice.autoClose ?? TOAST_DURATION,
    withBorder: true,
    closeButtonProps: { 'aria-label': i18n.t('common.close') },
    message: action ? (
      <Stack gap="xs">
        <Text size="sm">{text}</Text>
        <Group justify="flex-end">
          <Button
            size="compact-sm"
            variant="light"
            color="red"
            onClick={() => {
              notifications.hide(id);
              action.run();
            }}
          >
            {i18n.t(action.key)}
          </Button>
        </Group>
      </Stack>
    ) : (
      text
    ),
  });
}
