import type { Span, Tracer } from '@opentelemetry/api';
import { SpanKind } from '@opentelemetry/api';
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely';

const OPERATIONS: Record<string, string> = {
  SelectQueryNode: 'SELECT',
  InsertQueryNode: 'INSERT',
  UpdateQueryNode: 'UPDATE',
  DeleteQueryNode: 'DELETE',
  MergeQueryNode: 'MERGE',
  RawNode: 'RAW',
};

/** The first table a statement names (for the span's name); undefined for raw SQL and schema changes. */
function tableOf(node: RootOperationNode): string | undefined {
  const n = node as unknown as {
    from?: { froms?: { table?: { identifier?: { name?: string } } }[] };
    into?: { table?: { identifier?: { name?: string } } };
    table?: { table?: { identifier?: { name?: string } } };
  };
  return (
    n.from?.froms?.[0]?.table?.identifier?.name ??
    n.into?.table?.identifier?.name ??
    n.table?.table?.identifier?.name
  );
}

/**
 * A Kysely plugin that makes one client span per SQL statement (OpenTelemetry database conventions:
 * system, operation, table; never the statement's values), child of the span active when it runs.
 * A statement that fails never reaches transformResult: its span is not ended, so not exported (it is
 * only held weakly, by the statement's query id).
 */
export class QuerySpansPlugin implements KyselyPlugin {
  private readonly open = new WeakMap<object, Span>();

  constructor(
    private readonly tracer: Tracer,
    private readonly system: 'sqlite' | 'postgresql',
  ) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const operation = OPERATIONS[args.node.kind] ?? args.node.kind.replace(/Node$/, '');
    const table = tableOf(args.node);
    const span = this.tracer.startSpan(table ? `${operation} ${table}` : operation, {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': this.system,
        'db.operation.name': operation,
        ...(table ? { 'db.collection.name': table } : {}),
      },
    });
    this.open.set(args.queryId, span);
    return args.node;
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const span = this.open.get(args.queryId);
    if (span) {
      this.open.delete(args.queryId);
      if (args.result.numAffectedRows !== undefined)
        span.setAttribute('db.response.returned_rows', Number(args.result.numAffectedRows));
      else span.setAttribute('db.response.returned_rows', args.result.rows.length);
      span.end();
    }
    return Promise.resolve(args.result);
  }
}
