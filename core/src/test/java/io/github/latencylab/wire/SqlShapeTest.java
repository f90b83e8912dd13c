package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Statements as shapes: what groups the 100 selects of an N+1, and what keeps a batch apart. */
class SqlShapeTest {

  @Test
  void literalsAndParametersBecomeQuestionMarksIdentifiersStay() {
    assertThat(SqlShape.of("select b1_0.author_id,b1_0.id from book b1_0"
        + " where b1_0.author_id=$1"))
        .isEqualTo("select b1_0.author_id,b1_0.id from book b1_0 where b1_0.author_id=?");
    assertThat(SqlShape.of("SELECT * FROM t WHERE name = 'O''Brien'  AND  n >= -4.5e3"))
        .isEqualTo("SELECT * FROM t WHERE name = ? AND n >= ?");
    assertThat(SqlShape.of("select * from book where author_id = 42"))
        .isEqualTo(SqlShape.of("select * from book where author_id = 7"));
  }

  @Test
  void listsOfKeysCollapseAndMakeAKeyListLoad() {
    String in16 = SqlShape.of("select b.id from book b where b.author_id in ($1,$2,$3,$4)");
    assertThat(in16).isEqualTo("select b.id from book b where b.author_id in (...)")
        .isEqualTo(SqlShape.of("select b.id from book b where b.author_id in (1, 2)"));
    assertThat(SqlShape.loadsByKeyList(in16)).isTrue();
    String any = SqlShape.of("select b1_0.id from book b1_0 where b1_0.author_id = any ($1)");
    assertThat(any).isEqualTo("select b1_0.id from book b1_0 where b1_0.author_id = any (?)");
    assertThat(SqlShape.loadsByKeyList(any)).isTrue();
    assertThat(SqlShape.loadsByKeyList(SqlShape.of("select * from book where id = $1")))
        .isFalse();
  }

  @Test
  void aLongSelectListIsShortenedForMessages() {
    assertThat(SqlShape.brief("select b1_0.author_id,b1_0.id,b1_0.published,b1_0.title from"
        + " book b1_0 where b1_0.author_id=?"))
        .isEqualTo("select ... from book b1_0 where b1_0.author_id=?");
    assertThat(SqlShape.brief("select id from t")).isEqualTo("select id from t");
  }

  @Test
  void queriesAndTransactionControlAreToldApart() {
    assertThat(SqlShape.isQuery("with x as (select 1) select * from x")).isTrue();
    assertThat(SqlShape.isQuery("insert into t values (?)")).isFalse();
    assertThat(SqlShape.isTransactionControl("BEGIN")).isTrue();
    assertThat(SqlShape.isTransactionControl("COMMIT")).isTrue();
    assertThat(SqlShape.isTransactionControl("")).isTrue();
    assertThat(SqlShape.isTransactionControl("select 1")).isFalse();
    assertThat(SqlShape.isTransactionControl("(select 1) union (select 2)")).isFalse();
    assertThat(SqlShape.isTransactionControl("START TRANSACTION ISOLATION LEVEL SERIALIZABLE"))
        .isTrue();
    assertThat(SqlShape.isTransactionControl("select * from endpoints")).isFalse();
    assertThat(SqlShape.firstWord("\n  WITH x AS (select 1) select 2")).isEqualTo("with");
    assertThat(SqlShape.firstWord("select*from t")).isEqualTo("select");
    assertThat(SqlShape.firstWord("(select 1)")).isEmpty();
  }

  @Test
  void ddlAndStatisticsChangePlansQueriesAndWritesDoNot() {
    assertThat(SqlShape.changesPlans("  DROP INDEX owners_last_name")).isTrue();
    assertThat(SqlShape.changesPlans("create index on owners (last_name)")).isTrue();
    assertThat(SqlShape.changesPlans("ANALYZE owners")).isTrue();
    assertThat(SqlShape.changesPlans("VACUUM")).isTrue();
    assertThat(SqlShape.changesPlans("truncate t restart identity")).isTrue();
    assertThat(SqlShape.changesPlans("SELECT * FROM created_at")).isFalse();
    assertThat(SqlShape.changesPlans("INSERT INTO t VALUES (1)")).isFalse();
    assertThat(SqlShape.changesPlans("CREATED")).isFalse();
    assertThat(SqlShape.changesPlans("")).isFalse();
  }
}
