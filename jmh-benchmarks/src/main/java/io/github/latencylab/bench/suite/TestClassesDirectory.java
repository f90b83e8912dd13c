package io.github.latencylab.bench.suite;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The suite's test classes as a build's test run loads them: from a directory of classes, as
 * surefire loads target/test-classes, which latency-lab takes for the application's code. In
 * the benchmarks' jar they share a location with latency-lab's own classes, whose frames are
 * never a call site: loaded from there, no frame of a test's statement would be the
 * application's, and a budget would skip the work it does for one (its call site's line).
 */
final class TestClassesDirectory {

  private final String outer;
  private final ClassLoader loader;

  private TestClassesDirectory(String outer, ClassLoader loader) {
    this.outer = outer;
    this.loader = loader;
  }

  /** {@code outer} and its nested classes, their class files copied into {@code directory}. */
  static TestClassesDirectory of(Class<?> outer, Path directory) {
    Deque<Class<?>> classes = new ArrayDeque<>();
    classes.push(outer);
    try {
      while (!classes.isEmpty()) {
        Class<?> c = classes.pop();
        String file = c.getName().replace('.', '/') + ".class";
        Path into = directory.resolve(file);
        Files.createDirectories(into.getParent());
        try (InputStream in = c.getClassLoader().getResourceAsStream(file)) {
          if (in == null) {
            throw new IllegalStateException("No class file " + file + " beside " + outer);
          }
          Files.copy(in, into);
        }
        for (Class<?> nested : c.getDeclaredClasses()) {
          classes.push(nested);
        }
      }
      return new TestClassesDirectory(outer.getName(),
          new ChildFirst(directory.toUri().toURL(), outer.getName(), outer.getClassLoader()));
    } catch (IOException e) {
      throw new UncheckedIOException("Could not copy " + outer + "'s classes into " + directory,
          e);
    }
  }

  /** The copy of {@code c} from the directory, where it is one of these classes. */
  Class<?> load(Class<?> c) {
    if (!c.getName().equals(outer) && !c.getName().startsWith(outer + "$")) {
      return c;
    }
    try {
      return loader.loadClass(c.getName());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(c + " is not in the test classes' directory", e);
    }
  }

  /** Runs the directory's copy of the outer class's static {@code method} (no arguments). */
  void call(String method) {
    try {
      Method m = loader.loadClass(outer).getDeclaredMethod(method);
      m.setAccessible(true);
      m.invoke(null);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("Could not call " + outer + "." + method + "()", e);
    }
  }

  // the outer class and its nested ones from the directory, everything else from the parent
  private static final class ChildFirst extends URLClassLoader {
    private final String outer;

    ChildFirst(URL directory, String outer, ClassLoader parent) {
      super(new URL[] {directory}, parent);
      this.outer = outer;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
      if (!name.equals(outer) && !name.startsWith(outer + "$")) {
        return super.loadClass(name, resolve);
      }
      synchronized (getClassLoadingLock(name)) {
        Class<?> c = findLoadedClass(name);
        if (c == null) {
          c = findClass(name);
        }
        if (resolve) {
          resolveClass(c);
        }
        return c;
      }
    }
  }
}
