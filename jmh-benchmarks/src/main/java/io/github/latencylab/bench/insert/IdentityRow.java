package io.github.latencylab.bench.insert;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;

/**
 * The same row with an IDENTITY id: Hibernate must read each generated id back before it can
 * go on, so it cannot batch these inserts.
 */
@Entity
@Table(name = IdentityRow.TABLE)
public class IdentityRow {

  static final String TABLE = "insert_target_identity";

  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;
  @Column(nullable = false)
  private String name;
  @Column(nullable = false, precision = 12, scale = 2)
  private BigDecimal amount;
  @Column(name = "created_at", nullable = false)
  private OffsetDateTime createdAt;

  protected IdentityRow() {
  }

  IdentityRow(InsertRows.Row row) {
    this.name = row.name();
    this.amount = row.amount();
    this.createdAt = row.createdAt();
  }
}
