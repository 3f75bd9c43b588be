import { Alert } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import { parse } from 'yaml';
import { swaggerOptions, withoutHtml, withTryItUrl } from './openapi-options';

/**
 * An OpenAPI (2 or 3) page through swagger-ui, with the page's configuration (console-apis.md 3).
 * This module is loaded lazily: swagger-ui is large and only the documentation viewers need it.
 */
export default function OpenApiView({
  content,
  configuration,
}: {
  content: string;
  configuration: Record<string, string>;
}) {
  const { t } = useTranslation();
  const spec = useMemo(() => {
    try {
      const parsed: unknown = parse(content);
      return parsed && typeof parsed === 'object'
        ? withTryItUrl(withoutHtml(parsed) as object, configuration.tryItURL)
        : null;
    } catch {
      return null;
    }
  }, [content, configuration.tryItURL]);
  if (!spec) return <Alert color="red">{t('pages.view.invalidOpenApi')}</Alert>;
  return <SwaggerUI spec={spec} {...swaggerOptions(configuration)} />;
}
