package io.github.latencylab.wire;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.UniInterceptor;
import io.smallrye.mutiny.subscription.UniSubscriber;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * Mutiny's side of {@link AssemblySites}: each {@link Uni} the application's code builds while a
 * test counts is remembered with that code's chain, recorded as built and again as subscribed.
 * Found by Mutiny's service loading (Hibernate Reactive, Quarkus); the Uni is left as it is.
 * Internal: public for Mutiny's service loader.
 */
public final class MutinyAssembly implements UniInterceptor {

  // weak: a Uni built and never subscribed is forgotten with it; a Uni's identity is its key
  private static final Map<Uni<?>, CallSites.Origin> BUILT =
      Collections.synchronizedMap(new WeakHashMap<>());

  @Override
  public <T> Uni<T> onUniCreation(Uni<T> uni) {
    CallSites.Origin origin = AssemblySites.assembled();
    if (origin != null) {
      long mark = AssemblySites.ownWorkBegins();
      BUILT.put(uni, origin);
      AssemblySites.ownWorkEnds(mark);
    }
    return uni;
  }

  @Override
  public <T> UniSubscriber<? super T> onSubscription(Uni<T> uni,
      UniSubscriber<? super T> subscriber) {
    if (!BUILT.isEmpty()) {
      CallSites.Origin origin = BUILT.get(uni);
      if (origin != null) {
        AssemblySites.asked(origin);
      }
    }
    return subscriber;
  }
}
