/**
 * `styles` of a Mantine input whose value is code (a context path, a path pattern, JSON): the typed value
 * in the monospace font, its label, description and error in the normal one. (`ff="monospace"` on the
 * input would set the font of its whole wrapper, label included.)
 */
export const CODE_INPUT_STYLES = {
  input: { fontFamily: 'var(--mantine-font-family-monospace)' },
} as const;
