/**
 * What the schema studio sends to the gateway (src/server/studio): changes to schema files, as edits of
 * a file's text or as a new file, and the migration file a change needs. Shared by the studio page
 * (src/runtime/studio) and the gateway.
 */
export type JsonPath = Array<string | number>;

export type SchemaEdit =
  /** Add a property (at the end of its object, or before `before`) or replace its value. */
  | { op: 'set'; path: JsonPath; value: unknown; before?: string }
  /** Remove a property, or an array item (a number as the last path segment). */
  | { op: 'remove'; path: JsonPath }
  /** Insert an item into the array at `path`, at `index` (default: the end). */
  | { op: 'insert'; path: JsonPath; value: unknown; index?: number }
  /** Rename a property in place (its value text is kept). */
  | { op: 'rename'; path: JsonPath; to: string }
  /** Move a property of an object before another one (`before` undefined: to the end). */
  | { op: 'move'; path: JsonPath; before?: string };

export interface StudioChange {
  /** Repo-relative path: schemas/routes.json or schemas/{entities,tables,forms,details}/<name>.json. */
  file: string;
  /** Edits of the file's current text. */
  edits?: SchemaEdit[];
  /** A new file's content (written as expanded JSON). */
  create?: unknown;
}

/** A migration file the change needs (the studio's proposal, maybe edited by the configurator). */
export interface StudioMigration {
  file: string;
  sql: string[];
}
