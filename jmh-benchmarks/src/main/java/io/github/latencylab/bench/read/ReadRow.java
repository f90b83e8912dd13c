package io.github.latencylab.bench.read;

import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import java.math.BigDecimal;
import java.time.OffsetDateTime;

/** The columns every table of {@link ReadRows} has, both widths: a narrow row whole. */
@MappedSuperclass
public abstract class ReadRow {

  @Id
  private long id;
  private String name;
  private BigDecimal amount;
  @Column(name = "created_at")
  private OffsetDateTime createdAt;

  protected ReadRow() {
  }

  long id() {
    return id;
  }
}
