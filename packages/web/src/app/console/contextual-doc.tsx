import { CloseButton, Group, Loader, Text, Title, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import Markdown from 'react-markdown';
import rehypeSanitize from 'rehype-sanitize';
import remarkGfm from 'remark-gfm';
import { http, isHttpError } from '../../shared/http';
import classes from './contextual-doc.module.css';

const docFile = (path: string, signal: AbortSignal) =>
  http.get<string>(path, { target: 'app', responseType: 'text', silent: true, signal });

/**
 * `GET ./docs/{page}.md`: the documentation of a console page (a file of the web app). Other languages
 * than en read `docs/{lang}/{page}.md` first and fall back to the English page.
 */
export const contextualDocQueryOptions = (page: string, language: string) => ({
  queryKey: ['contextual-doc', page, language] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const file = `${encodeURIComponent(page)}.md`;
    if (language !== 'en') {
      try {
        return await docFile(`docs/${encodeURIComponent(language)}/${file}`, signal);
      } catch (error) {
        if (!(isHttpError(error) && error.status === 404)) throw error;
      }
    }
    return docFile(`docs/${file}`, signal);
  },
  staleTime: Infinity,
  retry: false,
});

/** The contextual documentation panel of the console. */
export function ContextualDoc({ page, onClose }: { page: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const query = useQuery(contextualDocQueryOptions(page, i18n.resolvedLanguage ?? 'en'));
  return (
    <div>
      <Group justify="space-between" px="md" pt="md" pb="xs">
        <Title order={2} size="h5" tt="uppercase" c="dimmed">
          {t('console.doc.title')}
        </Title>
        <CloseButton onClick={onClose} aria-label={t('console.doc.close')} />
      </Group>
      <div className={classes.body}>
        {query.isPending ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : query.isError ? (
          <Text c="dimmed" size="sm">
            {t('console.doc.missing')}
          </Text>
        ) : (
          <Typography fz="sm" className={classes.doc}>
            <Markdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSanitize]}>
              {query.data}
            </Markdown>
          </Typography>
        )}
      </div>
    </div>
  );
}
