import { Center, Image, MantineProvider, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { appUrl } from '../shared/config/config';
import { cssVariablesResolver, toMantineTheme } from '../shared/config/theme';

/** Without a configuration there is no theme: the default one, and the default logo of the web app. */
const DEFAULT_LOGO = 'themes/assets/portico-logo.svg';

/** The page of a failed start-up: the management API is unreachable or answered an error. */
export function StartupError() {
  const { t } = useTranslation();
  return (
    <MantineProvider
      theme={toMantineTheme(undefined)}
      defaultColorScheme="light"
      cssVariablesResolver={cssVariablesResolver}
    >
      <Center mih="100vh" p="xl" bg="gray.0">
        <Stack align="center" gap="lg" maw={560}>
          <Image src={appUrl(DEFAULT_LOGO)} alt="" h={40} w="auto" fit="contain" />
          <Paper withBorder shadow="sm" p="xl" radius="md">
            <Stack gap="sm" align="center" role="alert">
              <ThemeIcon size={56} radius="xl" variant="light" color="red">
                <IconPlugConnectedX size={30} stroke={1.5} />
              </ThemeIcon>
              <Title order={1} size="h3" ta="center">
                {t('startup.title')}
              </Title>
              <Text ta="center">{t('startup.unreachable')}</Text>
            </Stack>
          </Paper>
        </Stack>
      </Center>
    </MantineProvider>
  );
}
