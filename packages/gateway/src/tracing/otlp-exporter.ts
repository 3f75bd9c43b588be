import { OTLPExporterBase } from '@opentelemetry/otlp-exporter-base';
import {
  convertLegacyHttpOptions,
  createOtlpHttpExportDelegate,
} from '@opentelemetry/otlp-exporter-base/node-http';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import type { IExportTraceServiceResponse, IExporterMetricsHelper } from '@opentelemetry/otlp-transformer';
import type { EncodedSpans } from './otlp-encoder.js';

export interface TraceExporterOptions {
  /** The traces URL (…/v1/traces); the standard OTEL_EXPORTER_OTLP_* variables fill what is not given. */
  url?: string;
  headers?: Record<string, string>;
  timeoutMillis?: number;
}

/** The exporter's own metrics count the spans of a request, not its bytes. */
const spanCount: IExporterMetricsHelper<EncodedSpans> = { name: 'span', countItems: (batch) => batch.count };

/**
 * OTLP/HTTP protobuf export of span batches already encoded (`EncodedSpanBatch`, as each span ended):
 * the official exporter's transport (agent, headers, compression, timeout, retries on 429/502/503/504
 * with back-off, concurrency limit, partial-success responses) sends the bytes as they are. The
 * official serializer, which encodes span objects at export time, cost more than the rest of tracing
 * together at sampling 1.
 */
export class PorticoTraceExporter extends OTLPExporterBase<EncodedSpans> {
  constructor(options: TraceExporterOptions = {}) {
    super(
      createOtlpHttpExportDelegate(
        convertLegacyHttpOptions(options, 'TRACES', 'v1/traces', {
          'Content-Type': 'application/x-protobuf',
        }),
        {
          serializeRequest: (batch: EncodedSpans) => batch.bytes,
          deserializeResponse: (data: Uint8Array): IExportTraceServiceResponse =>
            ProtobufTraceSerializer.deserializeResponse(data),
        },
        'otlp_http_span_exporter',
        spanCount,
        undefined,
      ),
    );
  }
}
