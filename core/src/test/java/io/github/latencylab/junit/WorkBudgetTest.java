package io.github.latencylab.junit;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedSuccessfully;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.test;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import io.github.latencylab.env.Lab;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * {@link ExpectWork}: what a team breaks without a round trip more (an index dropped, a wide
 * SELECT *, a sort past work_mem, WAL, allocations) fails a budget of counted work, each
 * naming the statement, its call site and its plan.
 */
class WorkBudgetTest {

  @Test
  void eachKindOfWorkFailsItsBudgetNamingTheStatement() {
    EngineTestKit.engine("junit-jupiter")
        .configurationParameter("latencylab.backend", "embedded")
        .selectors(selectClass(Owners.class)).execute().testEvents().assertThatEvents()
        .haveExactly(1, event(test("lookupsByAnIndex"), finishedSuccessfully()))
        .haveExactly(1, event(test("lookupsWithTheIndexDropped"), finishedWithFailure(
            message(m -> m.startsWith("lookupsWithTheIndexDropped(): expected no Seq Scan over"
                + " 10,000 rows, but `SELECT id FROM work_owners WHERE last_name = ?` x10 from"
                + " `WorkBudgetTest$Owners.lookups(WorkBudgetTest.java:")
                && m.contains(" reads work_owners (50,000 rows) whole: plan ")
                && m.contains("Seq Scan on work_owners")))))
        .haveExactly(1, event(test("selectStarOfAWideRow"), finishedWithFailure(
            message(m -> m.startsWith("selectStarOfAWideRow(): expected at most 2.0 kB of rows"
                + " received, but the statements' rows came to 10.")))))
        .haveExactly(1, event(test("aSortPastWorkMem"), finishedWithFailure(
            message(m -> m.startsWith("aSortPastWorkMem(): expected at most 0 B temp bytes"
                + " written, but the statements did ")
                && m.contains("`SELECT * FROM work_owners WHERE id <= ? ORDER BY notes DESC`"
                + " from `WorkBudgetTest$Owners.aSortPastWorkMem(WorkBudgetTest.java:")
                && m.contains("(Sort(Index Scan using work_owners_pkey on work_owners))")))))
        .haveExactly(1, event(test("insertsIntoAnIndexedTable"), finishedWithFailure(
            message(m -> m.startsWith("insertsIntoAnIndexedTable(): expected at most 9.8 kB WAL"
                + " written, but the statements did ")
                && m.contains("`INSERT INTO work_log VALUES (?, ?)` x200 from")))))
        .haveExactly(1, event(test("allocatesTenMegabytes"), finishedWithFailure(
            message(m -> m.startsWith("allocatesTenMegabytes(): expected at most 1.0 MB"
                + " allocated on the test's thread, but it allocated ")))))
        .haveExactly(1, event(test("readsEveryRow"), finishedWithFailure(
            message("readsEveryRow(): expected at most 100 rows returned, but the statements"
                + " got 50,000 (at the wire)"))));
  }

  @ExtendWith(LabExtension.class)
  static class Owners {

    @BeforeAll
    static void load(Lab lab) throws SQLException {
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute("DROP TABLE IF EXISTS work_owners, work_log");
        st.execute("CREATE TABLE work_owners (id int PRIMARY KEY, last_name text, notes text)");
        st.execute("INSERT INTO work_owners SELECT i, 'name' || i, repeat('x', 1000)"
            + " FROM generate_series(1, 50000) i");
        st.execute("CREATE INDEX work_owners_last_name ON work_owners (last_name)");
        st.execute("CREATE TABLE work_log (id int PRIMARY KEY, line text)");
        st.execute("CREATE INDEX work_log_line ON work_log (line)");
        st.execute("ANALYZE work_owners");
      }
    }

    @Test
    @ExpectWork(noSeqScanOver = 10_000, maxBlocks = 200)
    void lookupsByAnIndex(Lab lab) throws SQLException {
      lookups(lab, "SELECT id FROM work_owners WHERE last_name = ?");
    }

    @Test
    @ExpectWork(noSeqScanOver = 10_000)
    void lookupsWithTheIndexDropped(Lab lab) throws SQLException {
      direct(lab, "DROP INDEX work_owners_last_name");
      lookups(lab, "SELECT id FROM work_owners WHERE last_name = ?");
    }

    // after the plans were read: they are read as the test ends, on the schema it left
    @AfterEach
    void indexBack(Lab lab) throws SQLException {
      direct(lab, "CREATE INDEX IF NOT EXISTS work_owners_last_name ON work_owners (last_name)");
    }

    @Test
    @ExpectWork(maxRowBytes = 2_000)
    void selectStarOfAWideRow(Lab lab) throws SQLException {
      lookups(lab, "SELECT * FROM work_owners WHERE last_name = ?");
    }

    @Test
    @ExpectWork(maxTempBytes = 0)
    void aSortPastWorkMem(Lab lab) throws SQLException {
      try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement()) {
        st.execute("SET work_mem = '64kB'");
        st.setMaxRows(1);
        st.executeQuery("SELECT * FROM work_owners WHERE id <= 5000 ORDER BY notes DESC")
            .close();
      }
    }

    @Test
    @ExpectWork(maxWalBytes = 10_000)
    void insertsIntoAnIndexedTable(Lab lab) throws SQLException {
      try (Connection c = lab.dataSource().getConnection();
          PreparedStatement ps = c.prepareStatement("INSERT INTO work_log VALUES (?, ?)")) {
        for (int i = 0; i < 200; i++) {
          ps.setInt(1, i);
          ps.setString(2, "line " + i);
          ps.addBatch();
        }
        ps.executeBatch();
      }
    }

    @Test
    @ExpectWork(maxAllocatedBytes = 1 << 20)
    void allocatesTenMegabytes() {
      List<byte[]> kept = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        kept.add(new byte[1 << 20]);
      }
      if (kept.size() != 10) {
        throw new AssertionError();
      }
    }

    @Test
    @ExpectWork(maxRows = 100)
    void readsEveryRow(Lab lab) throws SQLException {
      try (Connection c = lab.dataSource().getConnection(); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT id FROM work_owners")) {
        while (rs.next()) {
          rs.getInt(1);
        }
      }
    }

    static void lookups(Lab lab, String sql) throws SQLException {
      try (Connection c = lab.dataSource().getConnection();
          PreparedStatement ps = c.prepareStatement(sql)) {
        for (int i = 1; i <= 10; i++) {
          ps.setString(1, "name" + (i * 997));
          try (ResultSet rs = ps.executeQuery()) {
            rs.next();
          }
        }
      }
    }

    static void direct(Lab lab, String sql) throws SQLException {
      try (Connection c = lab.directDataSource().getConnection();
          Statement st = c.createStatement()) {
        st.execute(sql);
      }
    }
  }
}
