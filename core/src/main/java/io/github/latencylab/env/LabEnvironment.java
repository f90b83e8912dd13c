package io.github.latencylab.env;

import java.util.Map;

/** What every result carries: where it was measured, on what, with which versions. */
public record LabEnvironment(
    String backend,
    String description,
    String postgresVersion,
    Map<String, String> postgresSettings,
    String pgjdbcVersion,
    String toxiproxyVersion,
    String link,
    String javaVersion,
    String javaVm,
    String os,
    int cpus,
    long maxHeapMb) {

  static LabEnvironment of(Lab lab) {
    ServerInfo server = lab.server();
    Runtime rt = Runtime.getRuntime();
    return new LabEnvironment(
        lab.backend().label(),
        lab.describe(),
        server.version(),
        server.settings(),
        org.postgresql.util.DriverInfo.DRIVER_VERSION,
        lab.toxiproxyVersion(),
        lab.link() == null ? null : lab.link().describe(),
        System.getProperty("java.version"),
        System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version"),
        System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
            + System.getProperty("os.arch"),
        rt.availableProcessors(),
        rt.maxMemory() / (1024 * 1024));
  }
}
