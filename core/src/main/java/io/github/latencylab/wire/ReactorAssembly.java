package io.github.latencylab.wire;

import java.util.function.Function;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Hooks;
import reactor.core.publisher.Operators;

/**
 * Reactor's side of {@link AssemblySites}: each operator the application's code assembles while
 * a test counts is lifted (its kind kept: a Mono stays a Mono) so that its subscription records
 * that code's chain; operators assembled elsewhere are left as they are. Installed with the
 * first counted stretch, where Reactor is on the class path (R2DBC, WebFlux).
 */
final class ReactorAssembly {

  private static final String KEY = "latency-lab-call-sites";

  private ReactorAssembly() {
  }

  static void install() {
    Hooks.onEachOperator(KEY, ReactorAssembly::traced);
  }

  private static Publisher<Object> traced(Publisher<Object> operator) {
    CallSites.Origin origin = AssemblySites.assembled();
    if (origin == null) {
      return operator;
    }
    long mark = AssemblySites.ownWorkBegins();
    Function<? super Publisher<Object>, ? extends Publisher<Object>> lift =
        Operators.liftPublisher((published, subscriber) -> {
          AssemblySites.asked(origin);
          return subscriber;
        });
    Publisher<Object> lifted = lift.apply(operator);
    AssemblySites.ownWorkEnds(mark);
    return lifted;
  }
}
