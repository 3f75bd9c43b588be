import { Container, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useConfig } from '../../shared/config/config-context';
import { LanguageSelect } from '../../shared/ui/language-picker';
import classes from './footer.module.css';

/** The portal footer: company name, product version and the language (root pages come with the portal pages). */
export function Footer() {
  const { t } = useTranslation();
  const config = useConfig();
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        <Group justify="space-between" gap="md" py="md">
          <Group gap="xs">
            <Text size="sm" fw={600}>
              {config.company.name}
            </Text>
            <Text size="sm" c="dimmed">
              {t('shell.footer.version', { version: config.build.version })}
            </Text>
          </Group>
          <LanguageSelect />
        </Group>
      </Container>
    </footer>
  );
}
