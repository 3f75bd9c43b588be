import { PasswordInput } from '@mantine/core';
import type { PasswordInputProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** A password input whose show/hide toggle is reachable with the keyboard and labelled in the user's language. */
export function PasswordField(props: PasswordInputProps) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      visibilityToggleFocusable
      visibilityToggleButtonProps={{ 'aria-label': t('account.togglePassword') }}
      {...props}
    />
  );
}
