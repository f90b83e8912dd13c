package io.github.latencylab.env;

import io.github.latencylab.env.backend.EmbeddedBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

/**
 * Two embedded Labs in a JVM of its own, for {@link EnvironmentFailuresTest} to kill: the JVM's
 * first (zonky's initdb) and one on a copy of its cluster (pg_ctl alone). Prints "ready
 * toxiproxyPid postmasterPid dataDirectory" for each, then waits.
 */
public final class LabInAnotherJvm {

  private LabInAnotherJvm() {
  }

  public static void main(String[] args) throws Exception {
    for (int i = 0; i < 2; i++) {
      Lab lab = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED));
      EmbeddedBackend backend = (EmbeddedBackend) lab.backendForTests();
      String data;
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SHOW data_directory")) {
        rs.next();
        data = rs.getString(1);
      }
      String postmaster = Files.readAllLines(Path.of(data, "postmaster.pid")).get(0).trim();
      System.out.println("ready " + backend.toxiproxyPid() + " " + postmaster + " " + data);
      System.out.flush();
    }
    Thread.sleep(Long.MAX_VALUE);
  }
}
