package io.github.latencylab.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine.Option;

/** The --json option of the commands that can write what they measured (a picocli mixin). */
public final class JsonOption {

  @Option(names = "--json", paramLabel = "FILE", description = "Also write the results as JSON")
  Path file;

  /**
   * Writes the results as indented JSON (java.time values as ISO text) to the --json file, if
   * one was given, and says where; {@code results} is built only then.
   */
  void write(Supplier<?> results, Consumer<String> say) throws IOException {
    if (file == null) {
      return;
    }
    ObjectMapper mapper = new ObjectMapper().findAndRegisterModules()
        .enable(SerializationFeature.INDENT_OUTPUT)
        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    Files.createDirectories(file.toAbsolutePath().getParent());
    mapper.writeValue(file.toFile(), results.get());
    say.accept("wrote " + file);
  }
}
