package io.github.latencylab.batch;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.BackendKind;
import io.github.latencylab.env.Lab;
import io.github.latencylab.env.LabConfig;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Every nasty value of the {@link Corpus} comes back exactly as it went in, with every helper. */
class NastyValuesTest {

  private static Lab lab;

  @BeforeAll
  static void start() {
    lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
  }

  @AfterAll
  static void stop() {
    lab.close();
  }

  @ParameterizedTest
  @EnumSource(Loader.class)
  void corpusComesBackExactly(Loader loader) throws Exception {
    assertThat(Corpus.ENTRIES).hasSizeGreaterThanOrEqualTo(50);
    try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
      st.execute("DROP TABLE IF EXISTS corpus");
      st.execute(Corpus.createTable("corpus"));
      List<Object[]> rows = Corpus.rows();
      if (loader == Loader.COPY_UPSERT) {
        // the same ids with other values first, so the upsert updates every row
        st.execute("INSERT INTO corpus (id, t, i4, by) SELECT g, 'old', -1, '\\x00'"
            + " FROM generate_series(1, " + rows.size() + ") g");
      }

      long loaded = loader.load(c, List.of("corpus"), Corpus.COLUMNS, rows);

      assertThat(loaded).isEqualTo(rows.size());
      assertThat(Corpus.differences(Corpus.expectedRows(), Corpus.readBack(c, "corpus")))
          .as("values that did not come back exactly, via " + loader).isEmpty();
    }
  }
}
