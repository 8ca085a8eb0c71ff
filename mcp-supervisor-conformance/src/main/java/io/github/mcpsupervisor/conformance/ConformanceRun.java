package io.github.mcpsupervisor.conformance;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.SupervisedToolCallback;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.ExitCodeGenerator;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * Drives one scenario: waits until the server is up, lists its tools through the
 * starter's tool callbacks and calls those the scenario intends, as a model would.
 */
@Component
class ConformanceRun implements ApplicationRunner, ExitCodeGenerator {

	static final String SERVER = "conformance";

	private static final Duration UP_TIMEOUT = Duration.ofSeconds(30);

	private static final Log logger = LogFactory.getLog(ConformanceRun.class);

	private final McpSupervisors supervisors;

	private final ToolCallbackProvider tools;

	private final Environment environment;

	private int exitCode = 1;

	ConformanceRun(McpSupervisors supervisors, ToolCallbackProvider tools, Environment environment) {
		this.supervisors = supervisors;
		this.tools = tools;
		this.environment = environment;
	}

	@Override
	public void run(ApplicationArguments args) throws InterruptedException {
		String scenario = this.environment.getProperty("MCP_CONFORMANCE_SCENARIO", "");
		McpServerStatus status = awaitUp(this.supervisors.supervisor(SERVER));
		if (status.state() != McpServerState.UP) {
			logger.error("Scenario '" + scenario + "': server is " + status.state() + ": " + status);
			return;
		}
		List<SupervisedToolCallback> listed = Arrays.stream(this.tools.getToolCallbacks())
			.filter(SupervisedToolCallback.class::isInstance)
			.map(SupervisedToolCallback.class::cast)
			.filter((callback) -> SERVER.equals(callback.getServerName()))
			.toList();
		logger.info("Scenario '" + scenario + "': " + listed.size() + " tools "
				+ listed.stream().map(SupervisedToolCallback::getOriginalToolName).toList());
		List<String> failures = new ArrayList<>();
		for (ScenarioCalls.ToolCall call : ScenarioCalls.of(scenario,
				this.environment.getProperty("MCP_CONFORMANCE_CONTEXT"), listed)) {
			ToolCallback callback = call.callback();
			try {
				String result = callback.call(call.arguments());
				logger.info(call.tool() + " -> " + result);
			}
			catch (RuntimeException ex) {
				failures.add(call.tool() + ": " + ex.getMessage());
				logger.error(call.tool() + " failed: " + ex.getMessage());
			}
		}
		this.exitCode = failures.isEmpty() ? 0 : 1;
	}

	private McpServerStatus awaitUp(McpServerSupervisor supervisor) throws InterruptedException {
		Instant deadline = Instant.now().plus(UP_TIMEOUT);
		McpServerStatus status = supervisor.status();
		while (status.state() != McpServerState.UP && status.state() != McpServerState.FAILED
				&& Instant.now().isBefore(deadline)) {
			Thread.sleep(20);
			status = supervisor.status();
		}
		return status;
	}

	@Override
	public int getExitCode() {
		return this.exitCode;
	}

}
