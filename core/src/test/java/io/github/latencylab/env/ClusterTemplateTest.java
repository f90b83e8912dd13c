package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Embedded starts after a JVM's first copy its cluster instead of running initdb again. */
class ClusterTemplateTest {

  @Test
  void aLaterStartRunsOnACopyAndLeavesNothingWhenClosed() throws Exception {
    LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED);
    Path first;
    Path second;
    try (Lab a = Lab.start(config)) {
      first = EmbeddedBackend.dataDirectory(a.directDataSource());
      try (Lab b = Lab.start(config)) {
        second = EmbeddedBackend.dataDirectory(b.directDataSource());
        assertThat(second).isNotEqualTo(first);
        assertThat(Path.of(System.getProperty("java.io.tmpdir"),
            "latency-lab-cluster-template-" + ProcessHandle.current().pid())).isDirectory();
        // a cluster of its own: what one Lab writes, the other does not see
        try (Connection c = a.directDataSource().getConnection();
            Statement st = c.createStatement()) {
          st.execute("CREATE TABLE latency_lab.only_in_a (id int)");
        }
        try (Connection c = b.directDataSource().getConnection();
            Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("SELECT to_regclass('latency_lab.only_in_a')")) {
          rs.next();
          assertThat(rs.getString(1)).isNull();
        }
      }
      assertThat(second).doesNotExist();
    }
    assertThat(first).doesNotExist();
  }

  @Test
  void theTemplateOfAJvmThatIsGoneIsDeleted(@TempDir Path tmp) throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    Path orphan = Files.createDirectories(tmp.resolve("latency-lab-cluster-template-"
        + gone.pid()).resolve("base"));
    Path mine = Files.createDirectories(tmp.resolve("latency-lab-cluster-template-"
        + ProcessHandle.current().pid()));
    ClusterTemplate.deleteOrphans(tmp);
    assertThat(orphan.getParent()).doesNotExist();
    assertThat(mine).isDirectory();
  }
}
