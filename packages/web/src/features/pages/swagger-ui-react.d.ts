/** The part of swagger-ui-react's props the OpenAPI viewer uses (the package ships no types). */
declare module 'swagger-ui-react' {
  import type { ComponentType } from 'react';
  export interface SwaggerRequest {
    url: string;
    headers: Record<string, string>;
    [key: string]: unknown;
  }
  export interface SwaggerUIProps {
    spec?: object | string;
    url?: string;
    docExpansion?: 'list' | 'full' | 'none';
    displayOperationId?: boolean;
    filter?: boolean | string;
    showExtensions?: boolean;
    showCommonExtensions?: boolean;
    maxDisplayedTags?: number;
    supportedSubmitMethods?: string[];
    tryItOutEnabled?: boolean;
    deepLinking?: boolean;
    requestInterceptor?: (request: SwaggerRequest) => SwaggerRequest;
  }
  const SwaggerUI: ComponentType<SwaggerUIProps>;
  export default SwaggerUI;
}
declare module 'swagger-ui-react/swagger-ui.css';
