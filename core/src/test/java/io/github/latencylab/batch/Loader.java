package io.github.latencylab.batch;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/** Every helper behind one call, so the same tests run against each of them. */
enum Loader {
  CHUNKED_BATCH {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      ChunkedBatchInsert insert = table.size() == 1 ? ChunkedBatchInsert.into(table.get(0))
          : ChunkedBatchInsert.into(table.get(0), table.get(1));
      for (Corpus.Col col : columns) {
        insert = insert.column(col.name(), ChunkedBatchInsert.PgType.valueOf(col.pgType()));
      }
      return insert.batchSize(40).load(c, rows);
    }
  },
  MULTI_ROW {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      MultiRowInsert insert = table.size() == 1 ? MultiRowInsert.into(table.get(0))
          : MultiRowInsert.into(table.get(0), table.get(1));
      for (Corpus.Col col : columns) {
        insert = insert.column(col.name(), MultiRowInsert.PgType.valueOf(col.pgType()));
      }
      return insert.rowsPerStatement(30).load(c, rows);
    }
  },
  UNNEST {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      UnnestInsert insert = table.size() == 1 ? UnnestInsert.into(table.get(0))
          : UnnestInsert.into(table.get(0), table.get(1));
      for (Corpus.Col col : columns) {
        insert = insert.column(col.name(), UnnestInsert.PgType.valueOf(col.pgType()));
      }
      return insert.rowsPerStatement(40).load(c, rows);
    }
  },
  COPY_TEXT {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      return copyLoader(table, columns).format(CopyLoader.Format.TEXT).load(c, rows);
    }
  },
  COPY_CSV {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      return copyLoader(table, columns).format(CopyLoader.Format.CSV).load(c, rows);
    }
  },
  COPY_BINARY {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      return copyLoader(table, columns).format(CopyLoader.Format.BINARY).load(c, rows);
    }
  },
  /** Upsert keyed on the first column, through a binary COPY into the staging table. */
  COPY_UPSERT {
    @Override
    long load(Connection c, List<String> table, List<Corpus.Col> columns, Iterable<Object[]> rows)
        throws SQLException {
      return copyLoader(table, columns).format(CopyLoader.Format.BINARY)
          .upsertOn(columns.get(0).name()).load(c, rows);
    }
  };

  private static CopyLoader copyLoader(List<String> table, List<Corpus.Col> columns) {
    CopyLoader copy = table.size() == 1 ? CopyLoader.into(table.get(0))
        : CopyLoader.into(table.get(0), table.get(1));
    for (Corpus.Col col : columns) {
      copy = copy.column(col.name(), CopyLoader.PgType.valueOf(col.pgType()));
    }
    return copy.bufferSize(1000);
  }

  /** Loads {@code rows} into {@code table} (one name, or schema and name) with this helper. */
  abstract long load(Connection c, List<String> table, List<Corpus.Col> columns,
      Iterable<Object[]> rows) throws SQLException;
}
