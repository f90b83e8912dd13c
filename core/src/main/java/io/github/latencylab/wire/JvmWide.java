package io.github.latencylab.wire;

import java.lang.reflect.InvocationTargetException;
import java.net.Socket;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * What every copy of latency-lab in one JVM shares, whichever class loader loaded it. A
 * framework may load latency-lab again in a loader of its own (Quarkus' runtime loader, Spring
 * Boot DevTools' restart loader) while pgjdbc, which makes a {@link CountingSocketFactory} by
 * name, sits in another: the copy on the system class path keeps the shared state, and the other
 * copies reach it by reflection, in JDK types only. Internal: public for those copies.
 */
public final class JvmWide {

  // by counter name (a Lab's socketFactoryArg): the socket its connections count through
  private static final ConcurrentMap<String, Supplier<Socket>> SOCKETS =
      new ConcurrentHashMap<>();
  private static final AtomicLong LAB_NUMBERS = new AtomicLong();
  // by Lab id: the statements its connections sent so far
  private static final ConcurrentMap<String, LongSupplier> STATEMENTS = new ConcurrentHashMap<>();
  // AssemblySites': the tests' stretches open, and the pipeline last subscribed
  private static final AtomicInteger STRETCHES = new AtomicInteger();
  private static final AtomicReference<Object[]> ASKED = new AtomicReference<>();

  private static final Class<?> ROOT = rootCopy(JvmWide.class).orElse(JvmWide.class);
  private static final ConcurrentMap<String, Supplier<Socket>> SHARED_SOCKETS =
      ROOT == JvmWide.class ? SOCKETS : fromRoot("socketMakers");
  private static final ConcurrentMap<String, LongSupplier> SHARED_STATEMENTS =
      ROOT == JvmWide.class ? STATEMENTS : fromRoot("statementCounts");
  private static final AtomicInteger SHARED_STRETCHES =
      ROOT == JvmWide.class ? STRETCHES : fromRoot("stretchesOpen");
  private static final AtomicReference<Object[]> SHARED_ASKED =
      ROOT == JvmWide.class ? ASKED : fromRoot("lastAsked");

  private JvmWide() {
  }

  /** The sockets of every Lab of this JVM, by counter name: the root copy's map. */
  public static ConcurrentMap<String, Supplier<Socket>> socketMakers() {
    return SHARED_SOCKETS;
  }

  /**
   * The statements each open Lab of this JVM counted so far, by Lab id: SQL a test sent to
   * another Lab than the one its budget reads shows there.
   */
  public static ConcurrentMap<String, LongSupplier> statementCounts() {
    return SHARED_STATEMENTS;
  }

  /** How many tests' counted stretches are open in this JVM ({@link AssemblySites}). */
  public static AtomicInteger stretchesOpen() {
    return SHARED_STRETCHES;
  }

  /**
   * The application's code that built the reactive pipeline built or subscribed last, in JDK types
   * ({@link AssemblySites}): a framework's copy of Mutiny or Reactor records it there.
   */
  public static AtomicReference<Object[]> lastAsked() {
    return SHARED_ASKED;
  }

  /** A Lab number no other Lab of this JVM has, whichever copy of latency-lab starts it. */
  public static long nextLabNumber() {
    if (ROOT == JvmWide.class) {
      return LAB_NUMBERS.incrementAndGet();
    }
    return JvmWide.<Long>fromRoot("nextLabNumber");
  }

  /**
   * The class of {@code type}'s name on the system class path, when it is not {@code type}
   * itself: latency-lab was loaded again, and that copy is the one every copy shares.
   */
  public static Optional<Class<?>> rootCopy(Class<?> type) {
    ClassLoader system = ClassLoader.getSystemClassLoader();
    if (type.getClassLoader() == system) {
      return Optional.empty();
    }
    try {
      Class<?> root = Class.forName(type.getName(), false, system);
      return root == type ? Optional.empty() : Optional.of(root);
    } catch (ClassNotFoundException | LinkageError notOnTheClassPath) {
      return Optional.empty();
    }
  }

  /** How a class loader reads in a message: its name or class, and its identity. */
  public static String describe(ClassLoader loader) {
    if (loader == null) {
      return "the bootstrap class loader";
    }
    String name = loader.getName() != null ? loader.getName() : loader.getClass().getName();
    return name + "@" + Integer.toHexString(System.identityHashCode(loader));
  }

  private static <T> T fromRoot(String method) {
    return inRootCopy(JvmWide.class, method, new Class<?>[0]);
  }

  /**
   * Calls the static {@code method} of the class path's copy of {@code type}, where a framework
   * loaded this one again: what it throws, it throws here.
   */
  @SuppressWarnings("unchecked")
  public static <T> T inRootCopy(Class<?> type, String method, Class<?>[] types,
      Object... args) {
    Class<?> root = type == JvmWide.class ? ROOT : rootCopy(type).orElseThrow();
    try {
      return (T) root.getMethod(method, types).invoke(null, args);
    } catch (InvocationTargetException e) {
      throw JvmWide.<RuntimeException>sneaky(e.getCause());
    } catch (ReflectiveOperationException | ClassCastException e) {
      throw copiesDoNotMatch(type, root, e);
    }
  }

  /** The one line for two copies of latency-lab that cannot work as one. */
  public static IllegalStateException copiesDoNotMatch(Class<?> mine, Class<?> root,
      Exception cause) {
    return new IllegalStateException("latency-lab is loaded twice in this JVM (by "
        + describe(mine.getClassLoader()) + " and by " + describe(root.getClassLoader())
        + ") and the two copies do not match: use one latency-lab-core version on the test"
        + " class path", cause);
  }

  @SuppressWarnings("unchecked")
  private static <E extends Throwable> E sneaky(Throwable t) throws E {
    throw (E) t;
  }
}
