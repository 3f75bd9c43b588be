import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer, TraceExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { IExportTraceServiceResponse } from '@opentelemetry/otlp-transformer';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { encodeTraceRequest } from './otlp-encoder.js';

export interface TraceExporterOptions {
  /** The traces URL (…/v1/traces); the standard OTEL_EXPORTER_OTLP_* variables fill what is not given. */
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
}

/**
 * OTLP/HTTP protobuf export of spans: the official exporter's transport (agent, headers, timeout,
 * retries on 429/502/503/504 with back-off, concurrency limit, partial-success responses), with the
 * request encoded by `encodeTraceRequest` (one pass, native string writes) instead of the official
 * serializer, which cost more than the rest of tracing together at sampling 1.
 */
export class PorticoTraceExporter extends OTLPExporterBase<ReadableSpan[]> {
  constructor(options: TraceExporterOptions = {}) {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', {
          'Content-Type': 'application/x-protobuf',
        }),
        {
          serializeRequest: encodeTraceRequest,
          deserializeResponse: (data: Uint8Array): IExportTraceServiceResponse =>
            ProtobufTraceSerializer.deserializeResponse(data),
        },
        'otlp_http_span_exporter',
        TraceExporterMetricsHelper,
        undefined,
      ),
    );
  }
}
