import { ActionIcon, Tooltip } from '@mantine/core';
import { IconHelpCircle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { StorageKeys } from '../../shared/lib/storage';
import { useStoredPreference } from '../../shared/lib/use-stored-preference';

/** Opens or closes the contextual documentation panel of the console (open by default, remembered). */
export function useContextualDocVisible() {
  return useStoredPreference<boolean>(StorageKeys.contextualDocVisible, true);
}

export function ContextualHelpButton() {
  const { t } = useTranslation();
  const [visible, setVisible] = useContextualDocVisible();
  const label = visible ? t('shell.help.hide') : t('shell.help.show');
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant={visible ? 'light' : 'subtle'}
        color={visible ? undefined : 'gray'}
        size="lg"
        radius="xl"
        aria-label={label}
        aria-pressed={visible}
        onClick={() => setVisible(!visible)}
      >
        <IconHelpCircle size={20} stroke={1.6} />
      </ActionIcon>
    </Tooltip>
  );
}
