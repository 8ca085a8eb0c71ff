package io.github.mcpsupervisor.autoconfigure;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The messages of a context that failed to start, its causes' included, one a line.
 */
public final class StartupFailures {

	private StartupFailures() {
	}

	public static String messages(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		StringBuilder messages = new StringBuilder();
		for (Throwable ex = context.getStartupFailure(); ex != null; ex = ex.getCause()) {
			messages.append(ex.getMessage()).append('\n');
		}
		return messages.toString();
	}

}
