package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The versions a result names are those of the jars that ran: each checked against the root
 * pom's version of the jar on this test's classpath.
 */
class LabEnvironmentTest {

  @Test
  void theVersionsAreTheClasspathsNotTheOnesCompiledIn() throws Exception {
    String pom = Files.readString(Path.of("../pom.xml"));
    assertThat(LabEnvironment.pgjdbcOnTheClasspath()).isEqualTo(property(pom, "pgjdbc.version"))
        .isEqualTo(jarVersion(org.postgresql.Driver.class, "postgresql"));
    assertThat(LabEnvironment.librariesOnTheClasspath())
        .containsEntry("JUnit Jupiter", property(pom, "junit.version"))
        .containsEntry("HikariCP", property(pom, "hikaricp.version"))
        .doesNotContainKeys("Spring Boot", "Hibernate ORM");
  }

  /** "42.7.13" of ".../postgresql-42.7.13.jar". */
  private static String jarVersion(Class<?> type, String artifact) throws Exception {
    String jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI())
        .getFileName().toString();
    assertThat(jar).startsWith(artifact + "-");
    return jar.substring(artifact.length() + 1, jar.length() - ".jar".length());
  }

  private static String property(String pom, String name) {
    Matcher m = Pattern.compile("<" + Pattern.quote(name) + ">([^<]+)<").matcher(pom);
    assertThat(m.find()).as(name + " in the root pom").isTrue();
    return m.group(1);
  }
}
