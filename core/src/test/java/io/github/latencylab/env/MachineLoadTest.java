package io.github.latencylab.env;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Another process's CPU counts as the machine's other load. */
class MachineLoadTest {

  @Test
  void aBusyProcessOutsideTheRunCountsAsOtherLoad() throws Exception {
    MachineLoad load = MachineLoad.start(Set.of()).orElseThrow();
    // an orphan (its parent shell exits at once): not under this JVM, as a build beside it
    Process shell = new ProcessBuilder("sh", "-c",
        "timeout 1.5 sh -c 'while :; do :; done' > /dev/null 2>&1 &").start();
    shell.waitFor();
    Thread.sleep(1_600);
    assertThat(load.othersCores()).as("about one core for 1.5 s of 1.6 s").isGreaterThan(0.5);
  }
}
