package io.github.latencylab.env.link;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.latencylab.latency.ToxicPlan;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The toxics of one Toxiproxy proxy, through Toxiproxy's HTTP API. (toxiproxy-java knows only
 * upstream's toxic types; it cannot create {@code latency_us}, nor list a proxy that has one.)
 */
public final class ProxyToxics {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final URI api;
  private final String proxy;

  /** {@code api}: e.g. http://127.0.0.1:8474; {@code proxy}: the proxy's name. */
  public ProxyToxics(URI api, String proxy) {
    this.api = api;
    this.proxy = proxy;
  }

  public URI api() {
    return api;
  }

  public String proxy() {
    return proxy;
  }

  /**
   * Whether this Toxiproxy has toxics of {@code type}: creates one with default attributes on
   * the proxy and removes it again. A stock server answers "invalid toxic type".
   */
  boolean supports(String type) throws IOException {
    String name = "latency-lab-probe-" + type;
    remove(name);
    Response created = send("POST", toxicsPath(), body(name, "downstream", type,
        Map.of()));
    if (created.statusCode() == 400 && created.body().contains("invalid toxic type")) {
      return false;
    }
    check(created, "create a " + type + " toxic");
    remove(name);
    return true;
  }

  /** Creates the toxic {@code name}. */
  public void add(String name, ToxicPlan.Toxic toxic) throws IOException {
    check(send("POST", toxicsPath(), body(name, toxic.stream(), toxic.type(),
        toxic.attributes())), "create toxic " + name + " (" + toxic + ")");
  }

  /** Removes the toxic {@code name} if there is one. */
  public void remove(String name) throws IOException {
    Response response = send("DELETE", toxicsPath() + "/" + encode(name), null);
    if (response.statusCode() != 404) {
      check(response, "remove toxic " + name);
    }
  }

  /**
   * Removes the toxics whose names start with {@code prefix} and creates them again, with the
   * same attributes and in the same order per direction: their per-connection state (a
   * {@code tcp_window}'s window) starts anew on every open connection.
   */
  void recreate(String prefix) throws IOException {
    Response listed = send("GET", toxicsPath(), null);
    check(listed, "list its toxics");
    List<JsonNode> mine = new ArrayList<>();
    for (JsonNode toxic : JSON.readTree(listed.body())) { // upstream, then downstream, in order
      if (toxic.path("name").asText().startsWith(prefix)) {
        mine.add(toxic);
      }
    }
    for (JsonNode toxic : mine) {
      remove(toxic.path("name").asText());
    }
    for (JsonNode toxic : mine) {
      check(send("POST", toxicsPath(), JSON.writeValueAsString(toxic)), "create toxic "
          + toxic.path("name").asText() + " again");
    }
  }

  /** What the server's /version says, e.g. "2.5.0+latency_us" (a go install build says "git"). */
  public String serverVersion() throws IOException {
    Response response = send("GET", "/version", null);
    check(response, "read the version");
    return response.body().trim();
  }

  private String toxicsPath() {
    return "/proxies/" + encode(proxy) + "/toxics";
  }

  private static String body(String name, String stream, String type,
      Map<String, Long> attributes) throws IOException {
    Map<String, Object> toxic = new LinkedHashMap<>();
    toxic.put("name", name);
    toxic.put("type", type);
    toxic.put("stream", stream);
    toxic.put("toxicity", 1.0);
    toxic.put("attributes", attributes);
    return JSON.writeValueAsString(toxic);
  }

  // HttpURLConnection rather than java.net.http: building an HttpClient sets up TLS, ~0.3 s in a
  // new JVM, and every JVM that starts or attaches to a Lab talks to Toxiproxy (each benchmark
  // fork does); this API is plain HTTP on the machine
  private Response send(String method, String path, String body) throws IOException {
    HttpURLConnection c = (HttpURLConnection) api.resolve(path).toURL().openConnection();
    c.setConnectTimeout((int) TIMEOUT.toMillis());
    c.setReadTimeout((int) TIMEOUT.toMillis());
    c.setRequestMethod(method);
    c.setRequestProperty("Content-Type", "application/json");
    if (body != null) {
      c.setDoOutput(true);
      try (OutputStream out = c.getOutputStream()) {
        out.write(body.getBytes(StandardCharsets.UTF_8));
      }
    }
    int status = c.getResponseCode();
    try (InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream()) {
      return new Response(status, in == null ? ""
          : new String(in.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private record Response(int statusCode, String body) {
  }

  private void check(Response response, String what) throws IOException {
    if (response.statusCode() / 100 != 2) {
      throw new IOException("Toxiproxy at " + api + " could not " + what + " on proxy " + proxy
          + ": HTTP " + response.statusCode() + " " + response.body().trim());
    }
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }
}
