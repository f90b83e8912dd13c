package io.github.latencylab.bench.insert;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.math.BigDecimal;
import java.time.OffsetDateTime;

/** A row of {@code insert_target} with the id the application assigns. */
@Entity
@Table(name = InsertRows.TABLE)
public class InsertedRow {

  @Id
  private long id;
  @Column(nullable = false)
  private String name;
  @Column(nullable = false, precision = 12, scale = 2)
  private BigDecimal amount;
  @Column(name = "created_at", nullable = false)
  private OffsetDateTime createdAt;

  protected InsertedRow() {
  }

  InsertedRow(InsertRows.Row row) {
    this.id = row.id();
    this.name = row.name();
    this.amount = row.amount();
    this.createdAt = row.createdAt();
  }
}
