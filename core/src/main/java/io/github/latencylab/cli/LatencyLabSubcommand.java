package io.github.latencylab.cli;

import java.util.concurrent.Callable;

/**
 * A picocli {@code @Command} that another module adds to {@code ./latency-lab}, listed in
 * {@code META-INF/services/io.github.latencylab.cli.LatencyLabSubcommand}.
 */
public interface LatencyLabSubcommand extends Callable<Integer> {
}
