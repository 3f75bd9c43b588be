import { Alert } from '@mantine/core';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SwaggerRequest } from 'swagger-ui-react';
import SwaggerUI from 'swagger-ui-react';
import 'swagger-ui-react/swagger-ui.css';
import './openapi-view.css';
import { parse } from 'yaml';
import { swaggerOptions, withoutHtml, withTryItUrl } from './openapi-options';

/** How try-it calls reach the API: the server they go to, and the headers (the user's key) they carry. */
export interface TryItTarget {
  /** The gateway's entrypoint of the API (used unless the page sets its own try-it URL). */
  serverUrl?: string | undefined;
  /** Whether the reader may try (tryIt on, and signed in or tryItAnonymous on). */
  enabled: boolean;
  /** Headers added to every try-it call, e.g. { 'X-Api-Key': key }. */
  headers: Record<string, string>;
}

/**
 * An OpenAPI (2 or 3) page through swagger-ui, with the page's configuration (console-apis.md 3).
 * This module is loaded lazily: swagger-ui is large and only the documentation viewers need it.
 * With a try-it target, the calls go to the page's try-it URL or else to the gateway's entrypoint of
 * the API, with the target's headers; without one, try-it follows the page's tryIt flag alone.
 */
export default function OpenApiView({
  content,
  configuration,
  tryIt,
}: {
  content: string;
  configuration: Record<string, string>;
  tryIt?: TryItTarget;
}) {
  const { t } = useTranslation();
  const server = configuration.tryItURL || tryIt?.serverUrl;
  const spec = useMemo(() => {
    try {
      const parsed: unknown = parse(content);
      return parsed && typeof parsed === 'object'
        ? withTryItUrl(withoutHtml(parsed) as object, server)
        : null;
    } catch {
      return null;
    }
  }, [content, server]);
  // swagger-ui keeps the interceptor it was first given: it reads the current headers from here.
  const headers = useRef<Record<string, string>>({});
  const wanted = tryIt?.headers;
  useEffect(() => {
    headers.current = wanted ?? {};
  }, [wanted]);
  const interceptor = useMemo(
    () => (request: SwaggerRequest) => {
      if (!request.loadSpec) Object.assign(request.headers, headers.current);
      return request;
    },
    [],
  );
  if (!spec) return <Alert color="red">{t('pages.view.invalidOpenApi')}</Alert>;
  const options = swaggerOptions(configuration);
  if (tryIt && !tryIt.enabled) options.supportedSubmitMethods = [];
  return <SwaggerUI spec={spec} {...options} requestInterceptor={interceptor} />;
}
