import {
  IdentifierNode,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type SchemableIdentifierNode,
  type UnknownRow,
} from 'kysely';
import type { StoreTableNames } from './tables.js';

/** Renames the store's logical table names to their real ones in a query's tree. */
class TableNamesTransformer extends OperationNodeTransformer {
  readonly #names: ReadonlyMap<string, string>;

  constructor(names: ReadonlyMap<string, string>) {
    super();
    this.#names = names;
  }

  protected override transformSchemableIdentifier(
    node: SchemableIdentifierNode,
  ): SchemableIdentifierNode {
    const real = node.schema === undefined ? this.#names.get(node.identifier.name) : undefined;
    return real === undefined ? node : { ...node, identifier: IdentifierNode.create(real) };
  }
}

/**
 * A Kysely plugin that lets the store's queries name its tables by their logical names
 * (`threads`, `chunks`, `turns`, …: the keys of `StoreTables`) and sends them with the names the
 * store was created with (`tablePrefix`, `tables`). Queries are typed and written once, without
 * casts; a query compiled once (the hot ones) pays for the renaming once.
 */
export class TableNamesPlugin implements KyselyPlugin {
  readonly #transformer: TableNamesTransformer;

  /** @param names - the store's table names */
  constructor(names: StoreTableNames) {
    const map = new Map<string, string>();
    for (const [logical, real] of Object.entries(names)) {
      if (logical !== real) map.set(logical, real);
    }
    this.#transformer = new TableNamesTransformer(map);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
