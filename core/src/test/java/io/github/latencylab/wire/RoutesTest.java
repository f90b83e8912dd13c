package io.github.latencylab.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import org.junit.jupiter.api.Test;

/**
 * A handler's route from its mapping annotations, read by their names: Spring's and JAX-RS'
 * shapes (annotations of the same names here, as latency-lab reads no framework's types).
 */
class RoutesTest {

  @Retention(RetentionPolicy.RUNTIME)
  @interface RequestMapping {
    String[] value() default {};

    String[] path() default {};

    String[] method() default {};
  }

  @Retention(RetentionPolicy.RUNTIME)
  @interface GetMapping {
    String[] value() default {};
  }

  @Retention(RetentionPolicy.RUNTIME)
  @interface GET {
  }

  @Retention(RetentionPolicy.RUNTIME)
  @interface Path {
    String value();
  }

  @RequestMapping("/owners")
  static class SpringController {
    @GetMapping("/{ownerId}")
    void show() {
    }

    @RequestMapping(path = "list/", method = "POST")
    void list() {
    }

    void helper() {
    }
  }

  @Path("owners")
  static class JaxRsResource {
    @GET
    @Path("{ownerId}/edit")
    void edit() {
    }

    @GET
    void all() {
    }
  }

  @Test
  void aHandlersRouteJoinsItsClassesPathAndItsOwn() throws Exception {
    assertThat(Routes.route(SpringController.class.getDeclaredMethod("show")))
        .isEqualTo("GET /owners/{ownerId}");
    assertThat(Routes.route(SpringController.class.getDeclaredMethod("list")))
        .isEqualTo("POST /owners/list");
    assertThat(Routes.route(SpringController.class.getDeclaredMethod("helper"))).isNull();
    assertThat(Routes.route(JaxRsResource.class.getDeclaredMethod("edit")))
        .isEqualTo("GET /owners/{ownerId}/edit");
    assertThat(Routes.route(JaxRsResource.class.getDeclaredMethod("all")))
        .isEqualTo("GET /owners");
  }
}
