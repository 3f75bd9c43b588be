import type { MantineTheme } from '@mantine/core';

/** Status class colours (1xx to 5xx): informational blue, success green, redirect yellow, client orange, server red. */
export function statusColors(theme: MantineTheme, dark: boolean): string[] {
  const shade = dark ? 5 : 7;
  return ['blue', 'teal', 'yellow', 'orange', 'red'].map((c) => theme.colors[c]![shade]!);
}

/** The colour of an HTTP status by its class. */
export function statusColor(theme: MantineTheme, dark: boolean, status: string): string | undefined {
  const index = Number(status.charAt(0)) - 1;
  return index >= 0 && index < 5 ? statusColors(theme, dark)[index] : undefined;
}

/** A palette for the other series, from the theme, readable on the scheme's background. */
export function seriesPalette(theme: MantineTheme, dark: boolean): string[] {
  const shade = dark ? 4 : 7;
  return ['blue', 'grape', 'teal', 'orange', 'indigo', 'pink', 'lime', 'cyan', 'violet', 'red'].map(
    (c) => theme.colors[c]![shade]!,
  );
}

/** Axis and text colours of the scheme. */
export function textColors(theme: MantineTheme, dark: boolean) {
  return {
    text: dark ? theme.colors.dark[0] : theme.colors.gray[8],
    dimmed: dark ? theme.colors.dark[2] : theme.colors.gray[7],
    line: dark ? theme.colors.dark[4] : theme.colors.gray[3],
  };
}
