package io.github.latencylab.cli;

import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress of a long run on stderr: a live bar on a terminal, one line per step elsewhere
 * (CI logs, pipes), so that logs stay readable.
 */
public final class Progress implements AutoCloseable {

  private final String task;
  private final long max;
  private final ProgressBar bar;
  private long done;

  public Progress(String task, long max) {
    this.task = task;
    this.max = max;
    this.bar = System.console() == null ? null : new ProgressBarBuilder().setTaskName(task)
        .setInitialMax(max).setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(250)
        .continuousUpdate().build();
  }

  /** Says what runs now. */
  public void working(String what) {
    if (bar != null) {
      bar.setExtraMessage(what);
    } else {
      System.err.printf("%s %d/%d: %s...%n", task, done + 1, max, what);
    }
  }

  public void step() {
    done++;
    if (bar != null) {
      bar.step();
    }
  }

  @Override
  public void close() {
    if (bar != null) {
      bar.close();
    }
  }
}
