package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Which frame of the writing thread's stack makes a round trip overhead: the innermost one that
 * stands for one. A transaction's set-up by a framework is; its statements and COMMIT are not.
 */
class OverheadKindsTest {

  @Test
  void springsTransactionSetUpAndResetAreOverheadItsCommitIsNot() {
    assertThat(Overhead.of("org.springframework.jdbc.datasource.DataSourceUtils",
        "prepareConnectionForTransaction")).isEqualTo(Overhead.TRANSACTION);
    assertThat(Overhead.of("org.springframework.jdbc.datasource.DataSourceUtils",
        "resetConnectionAfterTransaction")).isEqualTo(Overhead.TRANSACTION);
    assertThat(Overhead.of("org.springframework.jdbc.datasource.DataSourceTransactionManager",
        "prepareTransactionalConnection")).isEqualTo(Overhead.TRANSACTION);
    assertThat(Overhead.of("org.springframework.orm.jpa.JpaTransactionManager", "doCommit"))
        .isNull();
    assertThat(Overhead.of("org.springframework.transaction.interceptor.TransactionInterceptor",
        "invoke")).isNull();
  }

  @Test
  void thePoolsOwnWorkIsOverhead() {
    assertThat(Overhead.of("com.zaxxer.hikari.pool.PoolBase", "isConnectionDead"))
        .isEqualTo(Overhead.VALIDATE);
    assertThat(Overhead.of("com.zaxxer.hikari.pool.PoolBase", "newConnection"))
        .isEqualTo(Overhead.CONNECT);
    assertThat(Overhead.of("org.postgresql.jdbc.TypeInfoCache", "getSQLType"))
        .isEqualTo(Overhead.DRIVER);
  }
}
