package io.github.latencylab.junit;

import io.github.latencylab.wire.TestsRunning;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Tells {@link TestsRunning} how many tests run at this moment, every test of the plan, those
 * without latency-lab too: what a pool's or a server's thread sends is a counting test's only
 * while no other test runs beside it (JUnit's parallel mode). Found by service loading, as
 * {@link AuditSession}.
 */
public final class RunningTests implements TestExecutionListener {

  private volatile AtomicInteger running;

  @Override
  public void testPlanExecutionStarted(TestPlan testPlan) {
    running = TestsRunning.planStarted();
  }

  @Override
  public void testPlanExecutionFinished(TestPlan testPlan) {
    TestsRunning.planFinished(running);
  }

  @Override
  public void executionStarted(TestIdentifier test) {
    if (test.isTest()) {
      TestsRunning.testStarted();
      if (running != null) {
        running.incrementAndGet();
      }
    }
  }

  @Override
  public void executionFinished(TestIdentifier test, TestExecutionResult result) {
    if (test.isTest() && running != null) {
      running.decrementAndGet();
    }
  }
}
