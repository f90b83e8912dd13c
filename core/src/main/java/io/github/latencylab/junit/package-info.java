/**
 * JUnit 5 support: {@link io.github.latencylab.junit.LabExtension} starts (or reuses) a Lab
 * and injects it, its DataSource and connections into tests; {@link
 * io.github.latencylab.junit.ExpectRoundTrips} / {@link
 * io.github.latencylab.junit.ExpectStatements} and {@link io.github.latencylab.junit.RoundTrips}
 * assert how many round trips and SQL statements code makes, counted at the wire, and list
 * the SQL that ran when it made too many.
 *
 * <p>{@code junit-jupiter-api} is an optional dependency of latency-lab-core: tests that use
 * this package have it already.
 */
package io.github.latencylab.junit;
