package io.github.latencylab.env;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import java.util.List;
import org.slf4j.LoggerFactory;

/** Every log line written while it is open, at every level, formatted: for tests of outputs. */
public final class LogCapture implements AutoCloseable {

  private final Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
  private final Logger lab = (Logger) LoggerFactory.getLogger("io.github.latencylab");
  private final ch.qos.logback.classic.Level labLevel = lab.getLevel();
  private final ListAppender<ILoggingEvent> appender = new ListAppender<>();

  private LogCapture() {
    appender.start();
    root.addAppender(appender);
    lab.setLevel(ch.qos.logback.classic.Level.DEBUG);
  }

  public static LogCapture start() {
    return new LogCapture();
  }

  /** The lines so far, each with its level, logger, message and any exception's messages. */
  public List<String> lines() {
    synchronized (appender.list) {
      return appender.list.stream().map(e -> {
        StringBuilder line = new StringBuilder(e.getLevel() + " " + e.getLoggerName() + " - "
            + e.getFormattedMessage());
        for (var t = e.getThrowableProxy(); t != null; t = t.getCause()) {
          line.append(" | ").append(t.getClassName()).append(": ").append(t.getMessage());
        }
        return line.toString();
      }).toList();
    }
  }

  @Override
  public void close() {
    root.detachAppender(appender);
    lab.setLevel(labLevel);
    appender.stop();
  }
}
