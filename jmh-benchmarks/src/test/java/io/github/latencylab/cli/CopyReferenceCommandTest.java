package io.github.latencylab.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.latencylab.batch.CopyLoader;
import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import io.github.latencylab.wire.WireStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** copy-reference compares like with like: psql loads the very text CopyLoader's CSV sends. */
class CopyReferenceCommandTest {

  @Test
  void theCsvFileIsTheTextCopyLoaderSendsAndBothToolsLoadTheSameRows(@TempDir Path dir)
      throws Exception {
    List<Object[]> rows = CopyReferenceCommand.rows(2_000);
    Path csv = dir.resolve("rows.csv");
    CopyReferenceCommand.writeCsv(csv, rows);
    // one CopyData message for the whole load, so the framing is known
    CopyLoader copy = CopyReferenceCommand.loader(CopyLoader.Format.CSV)
        .bufferSize(Integer.MAX_VALUE);
    try (Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED))) {
      CopyReferenceCommand.createTable(lab.directDataSource());
      try (Connection c = lab.dataSource().getConnection()) {
        WireStats sent = lab.wire(c).measure(() -> copy.load(c, rows));
        // the Query message, one CopyData header, CopyDone: the rest is the rows' text
        long framing = 1 + 4 + copy.sql().getBytes(StandardCharsets.UTF_8).length + 1 + 5 + 5;
        assertThat(sent.bytesSent() - framing).isEqualTo(Files.size(csv));
      }
      String byCopyLoader = contents(lab);
      // and it is the text PostgreSQL itself writes for these rows
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("SET TimeZone = 'UTC'");
        java.io.StringWriter out = new java.io.StringWriter();
        c.unwrap(org.postgresql.PGConnection.class).getCopyAPI().copyOut("COPY "
            + CopyReferenceCommand.TABLE + " TO STDOUT (FORMAT csv)", out);
        assertThat(out.toString()).isEqualTo(Files.readString(csv));
      }

      Optional<Path> psql = CopyReferenceCommand.findPsql();
      assumeTrue(psql.isPresent(), "no psql on this machine");
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("TRUNCATE " + CopyReferenceCommand.TABLE);
      }
      double[] seconds = CopyReferenceCommand.psqlCopy(psql.get(), lab.target(), csv);
      assertThat(seconds[0]).as("the copy, timed by \\timing").isPositive();
      assertThat(seconds[1]).as("psql's start, connection and exit").isPositive();
      assertThat(contents(lab)).isEqualTo(byCopyLoader);
    }
  }

  private static String contents(Lab lab) throws SQLException {
    try (Connection c = lab.directDataSource().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT count(*) || ' ' || md5(string_agg(t::text, ','"
            + " ORDER BY id)) FROM " + CopyReferenceCommand.TABLE + " t")) {
      rs.next();
      return rs.getString(1);
    }
  }
}
