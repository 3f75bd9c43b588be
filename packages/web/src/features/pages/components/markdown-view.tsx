import { Box, Group, NavLink, Stack, Typography } from '@mantine/core';
import type { ReactNode } from 'react';
import { Children, isValidElement } from 'react';
import { useTranslation } from 'react-i18next';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';

const textOf = (node: ReactNode): string =>
  Children.toArray(node)
    .map((child) =>
      typeof child === 'string' || typeof child === 'number'
        ? String(child)
        : isValidElement<{ children?: ReactNode }>(child)
          ? textOf(child.props.children)
          : '',
    )
    .join('');

/** The anchor of a heading: its text in lower case, words joined by dashes. */
export const slugOf = (text: string): string =>
  'doc-' +
  text
    .toLowerCase()
    .trim()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s+/g, '-');

/** The level-2 headings of a Markdown text, outside code blocks. */
export function level2Headings(markdown: string): string[] {
  const headings: string[] = [];
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced) {
      const match = /^##\s+(.+?)\s*#*\s*$/.exec(line);
      if (match) headings.push(match[1]!.replace(/[*_`]/g, ''));
    }
  }
  return headings;
}

/**
 * A Markdown page rendered safely: raw HTML is not rendered (react-markdown's default) and
 * rehype-sanitize keeps only GitHub's safe elements and attributes, so no script of a page runs.
 * Beside it, a navigation of its level-2 headings.
 */
export function MarkdownView({ content }: { content: string }) {
  const { t } = useTranslation();
  const headings = level2Headings(content);
  return (
    <Group align="flex-start" wrap="nowrap" gap="xl">
      <Box style={{ flex: 1, minWidth: 0 }}>
        <Typography>
          <Markdown
            remarkPlugins={[remarkGfm]}
            rehypePlugins={[rehypeSanitize]}
            components={{ h2: ({ children }) => <h2 id={slugOf(textOf(children))}>{children}</h2> }}
          >
            {content}
          </Markdown>
        </Typography>
      </Box>
      {headings.length > 0 && (
        <Stack
          component="nav"
          aria-label={t('pages.view.toc')}
          gap={0}
          w={220}
          style={{ position: 'sticky', top: 60 }}
        >
          {headings.map((heading, index) => (
            <NavLink key={`${index}-${heading}`} href={`#${slugOf(heading)}`} label={heading} />
          ))}
        </Stack>
      )}
    </Group>
  );
}
