package io.github.mcpsupervisor.supervisor;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Tests for {@link ThreadPoolSupervisorScheduler}.
 */
@ExtendWith(OutputCaptureExtension.class)
class ThreadPoolSupervisorSchedulerTests {

	@Test
	void aFailingTaskIsLoggedAndLaterTasksStillRun(CapturedOutput output) throws Exception {
		try (ThreadPoolSupervisorScheduler scheduler = new ThreadPoolSupervisorScheduler()) {
			CountDownLatch ran = new CountDownLatch(2);
			scheduler.schedule(Duration.ofMillis(1), () -> {
				throw new IllegalStateException("scripted timer failure");
			});
			scheduler.execute(() -> {
				throw new IllegalStateException("scripted worker failure");
			});
			scheduler.schedule(Duration.ofMillis(5), ran::countDown);
			scheduler.execute(ran::countDown);
			assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
			await().untilAsserted(() -> assertThat(output).contains("An MCP supervisor task failed")
				.contains("scripted timer failure")
				.contains("scripted worker failure"));
		}
	}

}
