package io.github.latencylab.wire;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A pgjdbc DataSource whose connections count their round trips and bytes: in total on the
 * Lab's counter, and each on its own ({@link #counterOf(Connection)}).
 */
public final class WireDataSource implements DataSource {

  private final PGSimpleDataSource delegate;
  private final String counterName;
  private final Map<String, String> properties = new java.util.LinkedHashMap<>();
  private final WireCounter total;
  // shared with the copies withProperty makes, so counterOf knows all their connections
  private Map<Connection, WireCounter> perConnection =
      Collections.synchronizedMap(new WeakHashMap<>());
  private Map<Connection, Thread> openedBy = Collections.synchronizedMap(new WeakHashMap<>());

  /** {@code counterName} must be registered with {@link CountingSocketFactory#register}. */
  public WireDataSource(String url, String user, String password, String counterName,
      WireCounter total) {
    this.total = total;
    this.counterName = counterName;
    delegate = new PGSimpleDataSource();
    delegate.setURL(url);
    delegate.setUser(user);
    delegate.setPassword(password);
    delegate.setSocketFactory(CountingSocketFactory.class.getName());
    delegate.setSocketFactoryArg(counterName);
  }

  /**
   * A data source like this one, counted on the same counter, with one more pgjdbc connection
   * property, e.g. {@code withProperty("reWriteBatchedInserts", "true")}.
   */
  public WireDataSource withProperty(String name, String value) {
    WireDataSource copy = new WireDataSource(delegate.getURL(), delegate.getUser(),
        delegate.getPassword(), counterName, total);
    copy.perConnection = perConnection;
    copy.openedBy = openedBy;
    copy.properties.putAll(properties);
    copy.properties.put(name, value);
    try {
      for (Map.Entry<String, String> p : copy.properties.entrySet()) {
        copy.delegate.setProperty(p.getKey(), p.getValue());
      }
    } catch (SQLException e) {
      throw new IllegalArgumentException("Invalid pgjdbc property " + name + "=" + value + ": "
          + e.getMessage(), e);
    }
    return copy;
  }

  /** The counter of every connection made through this data source. */
  public WireCounter total() {
    return total;
  }

  /** The counter of one connection this data source made. */
  public WireCounter counterOf(Connection connection) {
    WireCounter counter = perConnection.get(connection);
    if (counter == null) {
      throw new IllegalArgumentException(
          "This connection was not made by this Lab's data source: " + connection);
    }
    return counter;
  }

  @Override
  public Connection getConnection() throws SQLException {
    return track(delegate.getConnection());
  }

  @Override
  public Connection getConnection(String user, String password) throws SQLException {
    return track(delegate.getConnection(user, password));
  }

  private Connection track(Connection connection) {
    WireCounter counter = CountingSocketFactory.takeLastCreated();
    if (counter != null) {
      perConnection.put(connection, counter);
      openedBy.put(connection, Thread.currentThread());
    }
    return connection;
  }

  /**
   * The connections this data source (and its {@link #withProperty} copies) made that are
   * still open; with {@code thread} not null, only those opened on it.
   */
  public List<Connection> openConnections(Thread thread) {
    List<Connection> open = new ArrayList<>();
    synchronized (openedBy) {
      openedBy.forEach((c, t) -> {
        if (thread == null || thread == t) {
          open.add(c);
        }
      });
    }
    open.removeIf(c -> {
      try {
        return c.isClosed();
      } catch (SQLException e) {
        return true;
      }
    });
    return open;
  }

  public String url() {
    return delegate.getURL();
  }

  @Override
  public PrintWriter getLogWriter() {
    return delegate.getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) {
    delegate.setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) {
    delegate.setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() {
    return delegate.getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return delegate.getParentLogger();
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    if (type.isInstance(this)) {
      return type.cast(this);
    }
    return delegate.unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return type.isInstance(this) || delegate.isWrapperFor(type);
  }
}
