package io.github.latencylab.server;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonProperty;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * One row of {@code pg_settings}, with its value in human units.
 *
 * <p>{@code setting} is in the parameter's base unit, which differs per parameter: work_mem
 * and maintenance_work_mem count kB, shared_buffers, wal_buffers and effective_cache_size 8 kB
 * pages, checkpoint_timeout seconds. Reading "16384" as megabytes is the units trap of field
 * report 2 (a value 8x or 1024x off); {@link #value()} does the conversion.
 *
 * @param name the parameter, e.g. {@code shared_buffers}
 * @param setting its value in the base unit, as pg_settings has it, e.g. {@code 16384}
 * @param unit the base unit (e.g. {@code 8kB}, {@code kB}, {@code ms}), or null
 * @param source where the value comes from: default, configuration file, command line...
 * @param context when it can change: postmaster (restart), sighup (reload), user...
 * @param vartype bool, integer, real, string or enum
 */
public record PgSetting(String name, String setting, String unit, String source, String context,
    String vartype) {

  private static final String[] MEMORY_UNITS = {"TB", "GB", "MB", "kB", "B"};
  private static final long[] MEMORY_BYTES = {1L << 40, 1L << 30, 1L << 20, 1L << 10, 1};
  private static final String[] TIME_UNITS = {"d", "h", "min", "s", "ms", "us"};
  private static final double[] TIME_MS = {86_400_000, 3_600_000, 60_000, 1000, 1, 0.001};

  /** Bytes in one base unit for a memory unit ("8kB" is 8192), else -1. */
  static long bytesPerUnit(String unit) {
    if (unit == null) {
      return -1;
    }
    String u = unit.trim();
    String digits = u.replaceAll("[^0-9].*$", "");
    long factor = digits.isEmpty() ? 1 : Long.parseLong(digits);
    String symbol = u.substring(digits.length());
    for (int i = 0; i < MEMORY_UNITS.length; i++) {
      if (MEMORY_UNITS[i].equals(symbol)) {
        return factor * MEMORY_BYTES[i];
      }
    }
    return -1;
  }

  /** Milliseconds in one base unit for a time unit, else -1. */
  static double msPerUnit(String unit) {
    if (unit == null) {
      return -1;
    }
    for (int i = 0; i < TIME_UNITS.length; i++) {
      if (TIME_UNITS[i].equals(unit.trim())) {
        return TIME_MS[i];
      }
    }
    return -1;
  }

  @JsonIgnore
  public boolean isMemory() {
    return bytesPerUnit(unit) > 0;
  }

  @JsonIgnore
  public boolean isTime() {
    return msPerUnit(unit) > 0;
  }

  /** The value in bytes, for a memory setting with a value above zero. */
  public OptionalLong bytes() {
    if (!isMemory() || !"integer".equals(vartype)) {
      return OptionalLong.empty();
    }
    long v = Long.parseLong(setting.trim());
    return v > 0 ? OptionalLong.of(v * bytesPerUnit(unit)) : OptionalLong.empty();
  }

  /**
   * The value as a person reads it: memory and time in the largest unit that divides it
   * exactly, the way {@code SHOW} prints it but with a space ({@code 128 MB}, {@code 4 MB},
   * {@code 7200 kB}, {@code 5 min}); zero and negative values (off, auto) as they are; other
   * settings as pg_settings has them.
   */
  @JsonProperty("value")
  public String value() {
    if (setting == null) {
      return "";
    }
    boolean integer = "integer".equals(vartype);
    if (!integer && !"real".equals(vartype)) {
      return setting;
    }
    double v = Double.parseDouble(setting.trim());
    if (v <= 0) {
      return setting;
    }
    if (isMemory() && integer) {
      long bytes = (long) v * bytesPerUnit(unit);
      for (int i = 0; i < MEMORY_UNITS.length; i++) {
        if (bytes % MEMORY_BYTES[i] == 0) {
          return bytes / MEMORY_BYTES[i] + " " + MEMORY_UNITS[i];
        }
      }
    }
    if (isTime()) {
      double ms = v * msPerUnit(unit);
      for (int i = 0; i < TIME_UNITS.length; i++) {
        double n = ms / TIME_MS[i];
        if (Math.abs(n - Math.rint(n)) < 1e-9 * Math.max(1, n)) {
          return String.format(Locale.ROOT, "%.0f %s", n, TIME_UNITS[i]);
        }
      }
    }
    return unit == null ? setting : setting + " " + unit;
  }

  /** "8 kB pages", "kB", "seconds": what a bare number means for this setting, or null. */
  public String unitInWords() {
    if (unit == null) {
      return null;
    }
    return switch (unit) {
      case "8kB" -> "8 kB pages";
      case "16MB" -> "16 MB segments";
      case "B" -> "bytes";
      case "ms" -> "milliseconds";
      case "s" -> "seconds";
      case "min" -> "minutes";
      default -> unit;
    };
  }
}
