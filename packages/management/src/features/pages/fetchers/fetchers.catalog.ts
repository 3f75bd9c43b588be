import { z } from 'zod';

/**
 * The fetchers a page's `source.type` names, each with its configuration (zod, served as JSON schema
 * by `GET fetchers?expand=schema`). `fetchCron` schedules a fetch (cron, 5 or 6 fields, UTC).
 */
const fetchCron = z.string().max(100).optional().describe('Cron expression of the scheduled fetch (UTC)');
const ref = z.string().trim().min(1).max(255).default('main').describe('Branch or tag');
const filepath = z.string().trim().min(1).max(1024).describe('Path of the file (or folder, to import)');
const baseUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/ })
    .max(2048)
    .default(fallback)
    .describe('API base URL (self-hosted: your own)');

export const HttpFetcherConfig = z
  .object({
    url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .describe('URL of the file'),
    fetchCron,
  })
  .strict();
export const GithubFetcherConfig = z
  .object({
    githubUrl: baseUrl('https://api.github.com'),
    owner: z.string().trim().min(1).max(255),
    repository: z.string().trim().min(1).max(255),
    branchOrTag: ref,
    filepath,
    username: z.string().max(255).optional(),
    personalAccessToken: z.string().max(1024).optional(),
    fetchCron,
  })
  .strict();
export const GitlabFetcherConfig = z
  .object({
    gitlabUrl: baseUrl('https://gitlab.com/api/v4'),
    namespace: z.string().trim().min(1).max(255),
    project: z.string().trim().min(1).max(255),
    branchOrTag: ref,
    filepath,
    privateToken: z.string().max(1024).optional(),
    apiVersion: z.enum(['V4']).default('V4'),
    fetchCron,
  })
  .strict();
export const BitbucketFetcherConfig = z
  .object({
    bitbucketUrl: baseUrl('https://api.bitbucket.org/2.0'),
    username: z.string().trim().min(1).max(255).describe('Workspace or user owning the repository'),
    repository: z.string().trim().min(1).max(255),
    branchOrTag: ref,
    filepath,
    login: z.string().max(255).optional(),
    password: z.string().max(1024).optional().describe('App password'),
    fetchCron,
  })
  .strict();

export const FETCHERS = [
  {
    id: 'http-fetcher',
    name: 'HTTP',
    description: 'Reads a file from an http(s) URL',
    config: HttpFetcherConfig,
  },
  {
    id: 'github-fetcher',
    name: 'GitHub',
    description: 'Reads files from a GitHub repository',
    config: GithubFetcherConfig,
  },
  {
    id: 'gitlab-fetcher',
    name: 'GitLab',
    description: 'Reads files from a GitLab project',
    config: GitlabFetcherConfig,
  },
  {
    id: 'bitbucket-fetcher',
    name: 'Bitbucket',
    description: 'Reads files from a Bitbucket repository',
    config: BitbucketFetcherConfig,
  },
] as const;
export type FetcherId = (typeof FETCHERS)[number]['id'];

/** Fetchers that can list a folder (`_import`). */
export const IMPORT_FETCHERS: readonly FetcherId[] = [
  'github-fetcher',
  'gitlab-fetcher',
  'bitbucket-fetcher',
];

/** `GET fetchers`: id, name, description, and with `expand=schema` the configuration's JSON schema. */
export function fetcherList(expandSchema: boolean, importOnly: boolean) {
  return FETCHERS.filter((f) => !importOnly || IMPORT_FETCHERS.includes(f.id)).map((f) => ({
    id: f.id,
    name: f.name,
    description: f.description,
    version: '1.0.0',
    ...(expandSchema ? { schema: JSON.stringify(z.toJSONSchema(f.config, { io: 'input' })) } : {}),
  }));
}
