package io.github.latencylab.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.latencylab.env.LabEnvironment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A run's cells with the environment they were measured in: {@code results.json}. */
public record Results(String kind, String createdAt, String profile,
    LabEnvironment environment, List<Measurement> measurements) {

  private static final ObjectMapper JSON = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  public void write(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    JSON.writeValue(file.toFile(), this);
  }

  public static Results read(Path file) throws IOException {
    return JSON.readValue(file.toFile(), Results.class);
  }
}
