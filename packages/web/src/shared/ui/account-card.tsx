import { Anchor, Center, Image, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { appUrl } from '../config/config';
import { useConfig } from '../config/config-context';

/** The frame of the account pages (login, registration, confirmation, password reset). */
export function AccountCard({
  title,
  subtitle,
  children,
  width = 440,
}: {
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
  width?: number;
}) {
  const config = useConfig();
  return (
    <Center py={48} px="md">
      <Stack w="100%" maw={width} gap="lg">
        {/* The top bar (and its logo) is hidden on these pages while forced login is on. */}
        {config.authentication.forceLogin.enabled && (
          <Center>
            <Anchor component={Link} to="/" aria-label={config.company.name}>
              <Image
                src={appUrl(config.theme.logo)}
                alt={config.company.name}
                h={40}
                w="auto"
                fit="contain"
              />
            </Anchor>
          </Center>
        )}
        <Paper withBorder shadow="sm" radius="md" p="xl">
          <Stack gap="lg">
            <div>
              <Title order={1} size="h3">
                {title}
              </Title>
              {subtitle && (
                <Text c="dimmed" size="sm" mt={4}>
                  {subtitle}
                </Text>
              )}
            </div>
            {children}
          </Stack>
        </Paper>
      </Stack>
    </Center>
  );
}
