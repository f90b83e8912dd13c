package io.github.latencylab.cli;

import io.github.latencylab.latency.Rtt;
import java.util.List;
import picocli.CommandLine;

/** Reads "0.5ms,1ms,20ms" for picocli; a bad value's message names it. */
public final class RttConverter implements CommandLine.ITypeConverter<List<Rtt>> {
  @Override
  public List<Rtt> convert(String value) {
    try {
      return Rtt.parseList(value);
    } catch (IllegalArgumentException e) {
      throw new CommandLine.TypeConversionException(e.getMessage());
    }
  }
}
