import type { Database } from '@portico/storage';
import { findPagesOfReference } from '@portico/storage';
import type { Kysely } from 'kysely';
import type { SettingsService } from '../settings/settings.service.js';
import { definitionOf } from './apis.definition.js';
import type { ApiService } from './apis.service.js';

export interface QualityJson {
  score: number;
  metrics_passed: Record<string, boolean>;
}

const QUALITY_METRICS = [
  ['functional_documentation', 'apiQualityMetrics.functionalDocumentationWeight'],
  ['technical_documentation', 'apiQualityMetrics.technicalDocumentationWeight'],
  ['healthcheck', 'apiQualityMetrics.healthcheckWeight'],
  ['description', 'apiQualityMetrics.descriptionWeight'],
  ['logo', 'apiQualityMetrics.logoWeight'],
  ['views', 'apiQualityMetrics.viewsWeight'],
  ['labels', 'apiQualityMetrics.labelsWeight'],
] as const;

export interface ApiQualityServiceDeps {
  db: Kysely<Database>;
  settings: SettingsService;
  apis: Pick<ApiService, 'get'>;
}

/** The quality score of an API, from the weights of the platform settings. */
export class ApiQualityService {
  constructor(private readonly deps: ApiQualityServiceDeps) {}

  /**
   * `GET apis/{id}/quality`: the share of the weights of the metrics the API passes (0 to 1). Metrics
   * weighing 0 are unused and not reported.
   */
  async quality(id: string): Promise<QualityJson> {
    const row = await this.deps.apis.get(id);
    const definition = definitionOf(row);
    const settings = await this.deps.settings.values();
    const pages = await findPagesOfReference(this.deps.db, 'API', id, { published: true });
    const endpointsChecked = definition.proxy.groups.some((g) =>
      g.endpoints.some((e) => e.healthcheck?.enabled === true && e.healthcheck.inherit !== true),
    );
    const minLength = Number(settings.get('apiQualityMetrics.descriptionMinLength') ?? 0);
    const passed: Record<(typeof QUALITY_METRICS)[number][0], boolean> = {
      functional_documentation: pages.some((p) => p.type === 'MARKDOWN'),
      technical_documentation: pages.some((p) => p.type === 'SWAGGER'),
      healthcheck: definition.services['health-check']?.enabled === true || endpointsChecked,
      description: (row.description ?? '').trim().length >= minLength,
      logo: row.picture !== null,
      views: (JSON.parse(row.views) as string[]).length >= 1,
      labels: (JSON.parse(row.labels) as string[]).length >= 1,
    };
    let total = 0;
    let score = 0;
    const metrics: Record<string, boolean> = {};
    for (const [metric, key] of QUALITY_METRICS) {
      const weight = Number(settings.get(key) ?? 0);
      if (!(weight > 0)) continue;
      total += weight;
      if (passed[metric]) score += weight;
      metrics[metric] = passed[metric];
    }
    return { score: total > 0 ? score / total : 0, metrics_passed: metrics };
  }
}
