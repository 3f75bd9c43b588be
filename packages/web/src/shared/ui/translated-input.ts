import type { TFunction } from 'i18next';
import type { TranslationKey } from '../i18n/keys';

/** Mantine input props with the error (a translation key from the form's schema) translated. */
export function translatedInput<P extends { error?: unknown }>(props: P, t: TFunction): P {
  return typeof props.error === 'string' ? { ...props, error: t(props.error as TranslationKey) } : props;
}
