package io.github.latencylab.demo;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
import java.util.stream.Collectors;
import org.hibernate.Session;

/**
 * The fetch strategies of {@link NPlusOneQueries}, as values: what each answers, which
 * SessionFactory it needs, how many SQL statements it makes, and how to run it on an open
 * session. Run one with {@link Library#run} (a read-only transaction, counted at the wire) or,
 * in a benchmark, {@code strategy.run(library.openSession(strategy, connection), n)} inside a
 * transaction of your own.
 */
public enum NPlusOneStrategy {

  LAZY_LOOP("lazyLoop", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::lazyLoop, "lazy collection touched in a loop: the N+1"),
  JOIN_FETCH("joinFetch", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::joinFetch, "left join fetch a.books"),
  ENTITY_GRAPH("entityGraph", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::entityGraph, "named entity graph as a fetch graph"),
  BATCH_FETCH_16("batchFetch16", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::batchFetch16, "@BatchSize(size = 16)"),
  BATCH_FETCH_64("batchFetch64", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::batchFetch64, "@BatchSize(size = 64)"),
  BATCH_FETCH_DEFAULT("batchFetchDefault", Question.AUTHORS_WITH_BOOKS,
      Library.Tuning.DEFAULT_BATCH_FETCH, NPlusOneQueries::batchFetchDefault,
      "hibernate.default_batch_fetch_size=" + Library.DEFAULT_BATCH_FETCH_SIZE),
  SUBSELECT_FETCH("subselectFetch", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::subselectFetch, "@Fetch(FetchMode.SUBSELECT)"),
  DTO_PROJECTION("dtoProjection", Question.AUTHORS_WITH_BOOKS, Library.Tuning.MAPPED,
      NPlusOneQueries::dtoProjection, "select a.id, a.name, b.id, ... : no entities"),
  MANY_TO_ONE_LAZY_LOOP("manyToOneLazyLoop", Question.NEWEST_BOOKS_WITH_AUTHOR,
      Library.Tuning.MAPPED, NPlusOneQueries::manyToOneLazyLoop,
      "lazy author proxy touched in a loop: the N+1"),
  MANY_TO_ONE_JOIN_FETCH("manyToOneJoinFetch", Question.NEWEST_BOOKS_WITH_AUTHOR,
      Library.Tuning.MAPPED, NPlusOneQueries::manyToOneJoinFetch, "join fetch b.author");

  /** What a strategy answers; strategies of one question return equal data. */
  public enum Question {
    AUTHORS_WITH_BOOKS("%d authors with their books (one-to-many)"),
    NEWEST_BOOKS_WITH_AUTHOR("the %d newest books with their author (many-to-one)");

    private final String format;

    Question(String format) {
      this.format = format;
    }

    /** "100 authors with their books (one-to-many)". */
    public String describe(int n) {
      return String.format(Locale.ROOT, format, n);
    }
  }

  private final String label;
  private final Question question;
  private final Library.Tuning tuning;
  private final BiFunction<Session, Integer, List<? extends Listing>> query;
  private final String description;

  NPlusOneStrategy(String label, Question question, Library.Tuning tuning,
      BiFunction<Session, Integer, List<? extends Listing>> query, String description) {
    this.label = label;
    this.question = question;
    this.tuning = tuning;
    this.query = query;
    this.description = description;
  }

  /** The method's name in {@link NPlusOneQueries}: "lazyLoop", "batchFetch16"... */
  public String label() {
    return label;
  }

  public Question question() {
    return question;
  }

  /** The SessionFactory it needs. */
  public Library.Tuning tuning() {
    return tuning;
  }

  /** How it fetches, in a few words. */
  public String description() {
    return description;
  }

  /** Runs it in {@code session}, which must come from {@link #tuning()}'s SessionFactory. */
  public List<? extends Listing> run(Session session, int n) {
    return query.apply(session, n);
  }

  /**
   * The SQL statements it makes (transaction control excluded) for {@code n} of at most as
   * many authors as the database holds, each with at least one book; asserted in the tests.
   */
  public long expectedStatements(int n) {
    if (n <= 0) {
      return 1;
    }
    return switch (this) {
      case LAZY_LOOP, MANY_TO_ONE_LAZY_LOOP -> 1 + n;
      case JOIN_FETCH, ENTITY_GRAPH, DTO_PROJECTION, MANY_TO_ONE_JOIN_FETCH -> 1;
      case BATCH_FETCH_16 -> 1 + ceilDiv(n, 16);
      case BATCH_FETCH_64 -> 1 + ceilDiv(n, 64);
      case BATCH_FETCH_DEFAULT -> 1 + ceilDiv(n, Library.DEFAULT_BATCH_FETCH_SIZE);
      case SUBSELECT_FETCH -> 2;
    };
  }

  private static long ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  /** The strategy of that label ("lazyLoop") or constant name ("LAZY_LOOP"), any case. */
  public static NPlusOneStrategy of(String name) {
    for (NPlusOneStrategy s : values()) {
      if (s.label.equalsIgnoreCase(name.trim()) || s.name().equalsIgnoreCase(name.trim())) {
        return s;
      }
    }
    throw new IllegalArgumentException("Unknown strategy '" + name + "': expected one of "
        + labels());
  }

  /** "lazyLoop, joinFetch, ...". */
  public static String labels() {
    return Arrays.stream(values()).map(NPlusOneStrategy::label)
        .collect(Collectors.joining(", "));
  }

  /** The strategies that answer {@code question}, the N+1 first. */
  public static List<NPlusOneStrategy> of(Question question) {
    return Arrays.stream(values()).filter(s -> s.question == question).toList();
  }
}
