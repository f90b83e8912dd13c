package io.github.latencylab.bench.read;

import jakarta.persistence.Entity;

/**
 * A row of a narrow table of {@link ReadRows} (4 columns); {@link ReadBenchmark} maps it to
 * the table of its size at boot.
 */
@Entity
public class NarrowRow extends ReadRow {

  protected NarrowRow() {
  }
}
