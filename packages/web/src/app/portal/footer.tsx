import { Anchor, Container, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRootPortalPages } from '../../features/portal-pages/api/root-pages';
import { useConfig } from '../../shared/config/config-context';
import { LanguageSelect } from '../../shared/ui/language-picker';
import classes from './footer.module.css';

/** The portal footer: links to the portal's root pages (not folders), company name, product version, language. */
export function Footer() {
  const { t } = useTranslation();
  const config = useConfig();
  const pages = useRootPortalPages();
  return (
    <footer className={classes.footer}>
      <Container size="lg">
        {(pages.data ?? []).length > 0 && (
          <nav aria-label={t('portalPages.footer')}>
            <ul className={classes.links}>
              {pages.data!.map((page) => (
                <li key={page.id}>
                  <Anchor component={Link} to={`/pages/${encodeURIComponent(page.id)}`} size="sm" c="gray.8">
                    {page.name}
                  </Anchor>
                </li>
              ))}
            </ul>
          </nav>
        )}
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
