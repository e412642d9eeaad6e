/**
 * Named prepared statements on PGlite, for the statements callers mark `prepare` (db.ts QueryOptions):
 * PGlite's own query() parses, describes and plans its text on every run (an unnamed statement). The
 * API's authentication statement (token, business, rate-limit counter) planned for 2.3 ms of the 2.7 ms
 * it took on the bench's database, on every request; prepared once, PostgreSQL's plan cache keeps it
 * (a generic plan after five runs, as on a pg connection).
 *
 * The statement runs through PGlite's public protocol API, under the same two locks its query() takes
 * (so it waits for a transaction in progress, and a transaction waits for it), and the database is
 * synced to its files after it as after any query (relaxedDurability off).
 *
 * A `generic` statement is bound with plan_cache_mode set to force_generic_plan, set back to the
 * session's default right after (both inside the locks, so no other statement runs meanwhile): PostgreSQL
 * chooses a statement's plan at its Bind.
 */
import { parse, protocol, type PGlite } from '@electric-sql/pglite';

type Message = Awaited<ReturnType<PGlite['execProtocolStream']>>[number];

/** A query function running `sql` as the named statement `name` (prepared on first use, per database). */
export function preparedRunner(pg: PGlite): <T>(name: string, sql: string, params: unknown[], generic?: boolean) => Promise<T[]> {
  // Statement name → its parameters' type ids (from the first run's Describe).
  const prepared = new Map<string, number[]>();
  const send = (message: Uint8Array) => pg.execProtocolStream(message, { syncToFs: false });
  const mode = (value: string) => send(protocol.serialize.query(`SET plan_cache_mode = ${value}`));
  return async <T>(name: string, sql: string, params: unknown[], generic = false) => {
    await pg._checkReady();
    return pg._runExclusiveTransaction(() =>
      pg._runExclusiveQuery(async () => {
        const out: Message[] = [];
        try {
          let types = prepared.get(name);
          if (!types) {
            await send(protocol.serialize.parse({ name, text: sql }));
            types = parse.parseDescribeStatementResults(await send(protocol.serialize.describe({ type: 'S', name })));
            prepared.set(name, types);
          }
          const values = params.map((v, i) => {
            if (v === null || v === undefined) return null;
            const serialize = pg.serializers[types![i]];
            return serialize ? serialize(v) : String(v);
          });
          if (generic) await mode('force_generic_plan');
          out.push(
            ...(await send(protocol.serialize.bind({ statement: name, values }))),
            ...(await send(protocol.serialize.describe({ type: 'P' }))),
            ...(await send(protocol.serialize.execute({}))),
          );
        } finally {
          out.push(...(await send(protocol.serialize.sync())));
          if (generic) await mode('DEFAULT');
        }
        await pg.syncToFs();
        return parse.parseResults(out, pg.parsers)[0].rows as T[];
      }),
    );
  };
}
