import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { MailSink } from './mail-sink';
import type { Portico } from './portico';

export const PETSTORE = `openapi: 3.0.3
info:
  title: Swagger Petstore
  version: 1.0.0
  description: A sample API that uses a petstore as an example
servers:
  - url: http://petstore.example.com/v1
paths:
  /pets:
    get:
      operationId: listPets
      responses:
        '200':
          description: A list of pets
          content:
            application/json:
              schema:
                type: array
                items:
                  type: object
                  properties:
                    id: { type: integer, example: 1 }
                    name: { type: string, example: Rex }
  /pets/{petId}:
    get:
      operationId: showPetById
      parameters:
        - name: petId
          in: path
          required: true
          schema: { type: string }
      responses:
        '200':
          description: One pet
`;

export const README = '# Orders\n\nThe orders of the shop.\n\n## Calling it\n\n`GET /orders`\n';

export interface ApiJson {
  id: string;
  name: string;
  description: string;
  version: string;
  state: string;
  visibility: string;
  deployed_at: number | null;
  context_path: string;
  labels: string[];
  paths: Record<string, Record<string, unknown>[]>;
  path_mappings: string[];
}

/** What the steps of the console APIs test share: the running Portico, the browser page and API helpers. */
export interface ApisConsole {
  portico: Portico;
  sink: MailSink;
  browser: Browser;
  token: string;
  context: BrowserContext;
  page: Page;
  /** The API created and started by the wizard. */
  orders: ApiJson;
  api: <T>(path: string, init?: RequestInit) => Promise<{ status: number; body: T }>;
  apiByName: (name: string) => Promise<ApiJson>;
  exported: (
    id: string,
  ) => Promise<{ pages: { name: string; type: string; published: boolean; content: string }[] }>;
  toast: (text: string | RegExp) => Locator;
  go: (path: string) => Promise<void>;
}
