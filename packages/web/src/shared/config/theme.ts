import type { CSSVariablesResolver, MantineColorsTuple, MantineThemeOverride } from '@mantine/core';
import { Loader, createTheme } from '@mantine/core';

/** `themes/{name}-theme.json`: the colours, fonts and radius of a theme. */
export interface ThemeFile {
  name?: string;
  primaryColor?: string;
  primaryShade?: number;
  colors?: Record<string, string[]>;
  fontFamily?: string;
  headingsFontFamily?: string;
  defaultRadius?: string;
}

const isTuple = (value: unknown): value is MantineColorsTuple =>
  Array.isArray(value) && value.length >= 10 && value.every((c) => typeof c === 'string');

const RADII = ['xs', 'sm', 'md', 'lg', 'xl'];

/** The font of every page when the theme names none (also the start-up error page, which has no theme). */
export const DEFAULT_FONT_FAMILY =
  "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

/** The Mantine theme of a theme file; unknown or malformed entries keep Mantine's defaults. */
export function toMantineTheme(file: ThemeFile | undefined): MantineThemeOverride {
  const colors: Record<string, MantineColorsTuple> = {};
  for (const [name, shades] of Object.entries(file?.colors ?? {})) {
    if (isTuple(shades)) colors[name] = shades;
  }
  const primaryShade = file?.primaryShade;
  return createTheme({
    focusRing: 'auto',
    // Filled controls take black or white text, whichever reads on their colour (yellow, orange).
    autoContrast: true,
    cursorType: 'pointer',
    // Users who ask their system for less motion get menus, dialogs and toasts without transitions.
    respectReducedMotion: true,
    colors,
    components: {
      // A spinner is a status: with its label ("Loading…") it is announced, and axe-core allows the label.
      Loader: Loader.extend({ defaultProps: { role: 'status' } }),
    },
    ...(file?.primaryColor && (colors[file.primaryColor] || file.primaryColor in DEFAULT_COLOR_NAMES)
      ? { primaryColor: file.primaryColor }
      : {}),
    ...(typeof primaryShade === 'number' && primaryShade >= 0 && primaryShade <= 9
      ? { primaryShade: primaryShade as 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 }
      : {}),
    fontFamily: file?.fontFamily || DEFAULT_FONT_FAMILY,
    headings: { fontFamily: file?.headingsFontFamily || file?.fontFamily || DEFAULT_FONT_FAMILY },
    ...(file?.defaultRadius && RADII.includes(file.defaultRadius)
      ? { defaultRadius: file.defaultRadius }
      : {}),
  });
}

const DEFAULT_COLOR_NAMES: Record<string, true> = Object.fromEntries(
  [
    'dark',
    'gray',
    'red',
    'pink',
    'grape',
    'violet',
    'indigo',
    'blue',
    'cyan',
    'green',
    'lime',
    'yellow',
    'orange',
    'teal',
  ].map((c) => [c, true]),
);

/**
 * Text colours with WCAG AA contrast (4.5:1) on the light scheme: dimmed text, the text of light and
 * subtle variants (badges, alerts, active menu links) and blue and red filled buttons darker than
 * Mantine's defaults, which axe-core finds too pale on white.
 */
const BRIGHT_HUES = new Set(['yellow', 'orange', 'lime', 'green', 'teal', 'cyan']);

export const cssVariablesResolver: CSSVariablesResolver = (theme) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': 'var(--mantine-color-gray-7)',
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    '--mantine-primary-color-light-color': 'var(--mantine-primary-color-9)',
    ...Object.fromEntries(
      Object.keys(theme.colors).map((color) => [
        `--mantine-color-${color}-light-color`,
        // The bright hues' darkest shade is still too pale on their own light background.
        BRIGHT_HUES.has(color)
          ? `color-mix(in srgb, var(--mantine-color-${color}-9) 65%, black)`
          : `var(--mantine-color-${color}-9)`,
      ]),
    ),
    // White on Mantine's filled blue (shade 6) reads at 3.5:1; shade 8 reads at 5:1.
    '--mantine-primary-color-filled': 'var(--mantine-primary-color-8)',
    '--mantine-primary-color-filled-hover': 'var(--mantine-primary-color-9)',
    '--mantine-color-blue-filled': 'var(--mantine-color-blue-8)',
    '--mantine-color-blue-filled-hover': 'var(--mantine-color-blue-9)',
    '--mantine-color-red-filled': 'var(--mantine-color-red-9)',
    '--mantine-color-red-filled-hover': 'var(--mantine-color-red-8)',
  },
  dark: {},
});
