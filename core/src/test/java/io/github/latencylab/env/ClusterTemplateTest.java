package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.latencylab.env.backend.ClusterTemplate;
import io.github.latencylab.env.backend.EmbeddedBackend;
import io.github.latencylab.env.backend.Leftovers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        assertThat(first.resolveSibling("latency-lab-cluster-template-"
            + ProcessHandle.current().pid())).as("beside the JVM's first cluster").isDirectory();
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

  // latencylab.embedded.data: each cluster is made there, and one on a RAM disk says so
  @Test
  void clustersAreMadeWhereTheSettingSays(@TempDir Path onDisk) throws Exception {
    Path shm = Path.of("/dev/shm");
    Path inMemory = Files.isDirectory(shm) ? Files.createTempDirectory(shm, "latency-lab-") : null;
    // the JVM's template is taken first, where the other tests' Labs make theirs: one taken in a
    // directory this test deletes would leave them nothing to copy
    Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)).close();
    try {
      for (Path dir : inMemory == null ? List.of(onDisk) : List.of(onDisk, inMemory)) {
        LabConfig config = LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
            .with(Setting.EMBEDDED_DATA, dir.toString());
        Path data;
        try (Lab lab = Lab.start(config)) {
          data = EmbeddedBackend.dataDirectory(lab.directDataSource());
          assertThat(data.getParent()).isEqualTo(dir);
          boolean tmpfs = Files.getFileStore(dir).type().equals("tmpfs");
          assertThat(lab.describe().contains("(its data on tmpfs: commits skip a disk's flush)"))
              .as("%s on %s", lab.describe(), Files.getFileStore(dir).type()).isEqualTo(tmpfs);
        }
        assertThat(data).doesNotExist();
      }
    } finally {
      if (inMemory != null) {
        Leftovers.deleteTree(inMemory);
      }
    }
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

  // two JVMs' first starts at once (the build's two test JVMs) both find the orphan: neither
  // start may fail because the other deleted a file first (CI saw NoSuchFileException)
  @Test
  void twoJvmsDeletingTheSameOrphanAtOnceBothStart(@TempDir Path tmp) throws Exception {
    Process gone = new ProcessBuilder("true").start();
    gone.waitFor();
    for (int round = 0; round < 10; round++) {
      Path orphan = tmp.resolve("latency-lab-cluster-template-" + gone.pid());
      for (int d = 0; d < 10; d++) {
        Path dir = Files.createDirectories(orphan.resolve("base").resolve("d" + d));
        for (int f = 0; f < 30; f++) {
          Files.writeString(dir.resolve("f" + f), "x");
        }
      }
      CyclicBarrier together = new CyclicBarrier(2);
      Callable<Void> first = () -> {
        together.await();
        ClusterTemplate.deleteOrphans(tmp);
        return null;
      };
      // the second a little later each round: it walks what the first is deleting
      long lag = round;
      Callable<Void> second = () -> {
        together.await();
        Thread.sleep(lag);
        ClusterTemplate.deleteOrphans(tmp);
        return null;
      };
      ExecutorService twoJvms = Executors.newFixedThreadPool(2);
      try {
        for (Future<Void> f : twoJvms.invokeAll(List.of(first, second))) {
          f.get(); // throws what deleteOrphans threw
        }
      } finally {
        twoJvms.shutdownNow();
      }
      assertThat(orphan).doesNotExist();
    }
  }
}
