package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.latencylab.latency.Rtt;
import io.github.latencylab.wire.WireStats;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Lab attached through another's handle, as a benchmark fork attaches to its runner's: the
 * same PostgreSQL and proxy, its own counters, the RTT the owner's to set, the handle a file
 * only this user reads, gone when closed.
 */
class LabAttachTest {

  static Lab owner;

  @BeforeAll
  static void start() {
    // nominal toxics: what is attached is under test here, not the calibration
    owner = Lab.start(LabConfig.fromEnvironment().withBackend(BackendKind.EMBEDDED)
        .with(Setting.CALIBRATE, "false"));
  }

  @AfterAll
  static void stop() {
    owner.close();
  }

  static void selectOne(Connection c) throws Exception {
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT 1")) {
      rs.next();
    }
  }

  @Test
  void anAttachedLabWorksThroughTheSameProxyOnItsOwnCounters() throws Exception {
    owner.rtt(Rtt.parse("1ms"));
    try (LabHandle handle = owner.handle(); Lab attached = Lab.attach(handle.file())) {
      assertThat(attached.attached()).isTrue();
      assertThat(attached.backend()).isEqualTo(BackendKind.EMBEDDED);
      assertThat(attached.describe()).isEqualTo(owner.describe());
      assertThat(attached.target()).isEqualTo(owner.target());
      assertThat(attached.directTarget()).isEqualTo(owner.directTarget());
      assertThat(attached.server().version()).isEqualTo(owner.server().version());

      WireStats ownerBefore = owner.wire().snapshot();
      try (Connection c = attached.dataSource().getConnection()) {
        WireStats cost = attached.wire(c).measure(() -> selectOne(c));
        assertThat(cost.roundTrips()).isEqualTo(1);
      }
      assertThat(owner.wire().snapshot().minus(ownerBefore).roundTrips())
          .as("the owner's counters do not see the attached Lab's work").isZero();

      assertThatThrownBy(() -> attached.rtt(Rtt.parse("20ms")))
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("Cannot set or read the RTT of an attached Lab (" + owner.describe()
              + "): the Lab it is attached to sets it");
      assertThatThrownBy(() -> attached.measure(Rtt.ZERO))
          .isInstanceOf(IllegalStateException.class);
    }
    // closing the attached Lab stopped nothing
    try (Connection c = owner.dataSource().getConnection()) {
      selectOne(c);
    }
    assertThat(owner.rtt()).isEqualTo(Rtt.parse("1ms"));
    owner.rtt(Rtt.ZERO);
  }

  @Test
  void theHandleIsAFileOnlyThisUserReadsAndClosingDeletesIt() throws Exception {
    Path file;
    Path dir;
    try (LabHandle handle = owner.handle()) {
      file = handle.file();
      dir = file.getParent();
      assertThat(handle.jvmArg()).isEqualTo("-Dlatencylab.lab.handle=" + file);
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)))
          .isEqualTo("rwx------");
      assertThat(Files.readString(file)).contains("direct.port=" + owner.directTarget().port());
    }
    assertThat(file).doesNotExist();
    assertThat(dir).doesNotExist();
    assertThatThrownBy(() -> Lab.attach(file)).isInstanceOf(IllegalStateException.class)
        .hasMessage("Cannot attach to the Lab of " + file + ": no such file (the Lab it"
            + " described has stopped, or the path is wrong)");
  }

  @Test
  void directConnectionsDoNotCountOnTheWorkloadsWire() throws Exception {
    WireStats before = owner.wire().snapshot();
    try (Connection c = owner.directDataSource().getConnection()) {
      WireStats cost = owner.wire(c).measure(() -> selectOne(c));
      assertThat(cost.roundTrips()).isEqualTo(1);
    }
    assertThat(owner.wire().snapshot().minus(before).roundTrips()).isZero();
  }
}
