import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Writes toxiproxy-server.properties beside the binary a platform's module built: the hash of
 * the Go sources it was built from, computed as core's GoModule.sourceHash() does (the Lab
 * installs the binary only when it matches the hash of its own sources, so a stale one is never
 * run), the platform, and the binary's SHA-256 (the Lab checks its copy against it).
 *
 * <p>Run by the JDK's source launcher (exec-maven-plugin, toxiproxy-server/pom.xml):
 * {@code java BuildInfo.java SOURCES_DIRECTORY BINARY GOOS-GOARCH}
 */
public class BuildInfo {

  public static void main(String[] args) throws IOException, NoSuchAlgorithmException {
    if (args.length != 3) {
      throw new IllegalArgumentException("usage: java BuildInfo.java SOURCES_DIRECTORY BINARY"
          + " GOOS-GOARCH; got " + args.length + " arguments");
    }
    Path sources = Path.of(args[0]);
    Path binary = Path.of(args[1]);
    String platform = args[2];

    // SOURCES, then each file it lists, in its order: GoModule.sourceHash()
    MessageDigest sourceHash = MessageDigest.getInstance("SHA-256");
    byte[] list = Files.readAllBytes(sources.resolve("SOURCES"));
    sourceHash.update(list);
    for (String file : new String(list, StandardCharsets.UTF_8).lines()
        .filter(line -> !line.isBlank()).toList()) {
      sourceHash.update(Files.readAllBytes(sources.resolve(file)));
    }
    MessageDigest binaryHash = MessageDigest.getInstance("SHA-256");
    try (InputStream in = Files.newInputStream(binary)) {
      binaryHash.update(in.readAllBytes());
    }

    Path properties = binary.resolveSibling(binary.getFileName() + ".properties");
    Files.writeString(properties, "# what the Lab checks before it installs "
        + binary.getFileName() + " (io.github.latencylab.env.backend.GoModule)\n"
        + "sources.sha256=" + HexFormat.of().formatHex(sourceHash.digest()).substring(0, 12) + "\n"
        + "platform=" + platform + "\n"
        + "binary.sha256=" + HexFormat.of().formatHex(binaryHash.digest()) + "\n");
  }
}
