package io.github.latencylab.bench.read;

import jakarta.persistence.Entity;

/**
 * A row of a wide table of {@link ReadRows} (12 columns: the narrow four and eight notes);
 * {@link ReadBenchmark} maps it to the table of its size at boot.
 */
@Entity
public class WideRow extends ReadRow {

  private String note1;
  private String note2;
  private String note3;
  private String note4;
  private String note5;
  private String note6;
  private String note7;
  private String note8;

  protected WideRow() {
  }
}
