import { DuckDBInstance } from '@duckdb/node-api';
const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
const list = (col, typ) => `CASE WHEN ${col} IS NULL OR ${col} = '' THEN NULL ELSE list_transform(string_split(${col}, ';'), x -> x::${typ}) END AS ${col}`;
await c.run(`CREATE TABLE wide AS SELECT * FROM read_csv('wide.csv', header=true, all_varchar=true)`);
await c.run(`COPY (SELECT post_id, criterion_id, fold::BIGINT AS fold, split,
  CASE WHEN gold_uids IS NULL OR gold_uids = '' THEN []::VARCHAR[] ELSE string_split(gold_uids, ';') END AS gold_uids,
  string_split(candidate_uids, ';') AS candidate_uids,
  ${list('candidate_scores','DOUBLE')}, ${list('node_probs','DOUBLE')},
  ne_prob::DOUBLE AS ne_prob FROM wide) TO 'wide.parquet' (FORMAT parquet, ROW_GROUP_SIZE 25)`);
await c.run(`COPY (SELECT post_id, criterion_id, fold::BIGINT AS fold, split, candidate_uid, score::DOUBLE AS score, is_gold::BIGINT AS is_gold, node_prob::DOUBLE AS node_prob, ne_prob::DOUBLE AS ne_prob
  FROM read_csv('long.csv', header=true, all_varchar=true)) TO 'long.parquet' (FORMAT parquet, COMPRESSION zstd)`);
