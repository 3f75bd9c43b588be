import { NativeSelect } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, isLanguage, setLanguage } from '../i18n/i18n';

/** A language picker for visitors (the signed-in user has one in the user menu). */
export function LanguageSelect() {
  const { t, i18n } = useTranslation();
  return (
    <NativeSelect
      size="xs"
      aria-label={t('language.label')}
      value={i18n.resolvedLanguage ?? i18n.language}
      onChange={(event) => {
        const value = event.currentTarget.value;
        if (isLanguage(value)) void setLanguage(value);
      }}
      data={LANGUAGES.map((language) => ({ value: language, label: t(`language.names.${language}`) }))}
    />
  );
}
