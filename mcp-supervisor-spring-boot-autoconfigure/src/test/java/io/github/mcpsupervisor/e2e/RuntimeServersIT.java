package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.metrics.McpMetricsAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpPropertiesBinder;
import io.github.mcpsupervisor.client.McpServerClients;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.io.ApplicationResourceLoader;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Servers added and removed while the application runs, with real processes: an added
 * server's tools are called through the tool provider, a removed one's process is gone
 * and its tools and meters with it, and the other servers are not touched.
 */
@ExtendWith(OutputCaptureExtension.class)
class RuntimeServersIT {

	private static final Log logger = LogFactory.getLog(RuntimeServersIT.class);

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class, MetricsAutoConfiguration.class,
				McpMetricsAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withPropertyValues(properties("first"));

	@AfterEach
	void noChildIsLeftAfterTheContextCloses() {
		await().atMost(TestServers.PATIENCE).until(() -> ProcessHandle.current().children().findAny().isEmpty());
	}

	@Test
	void anAddedServerIsCallableAndARemovedOneIsGoneWithItsToolsAndMeters() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			ToolCallbackProvider tools = context.getBean(ToolCallbackProvider.class);
			McpServerStatus first = supervisors.supervisor("first").status();
			assertThat(first.state()).isEqualTo(McpServerState.UP);

			McpServerStatus added = registry.add("second", server());
			assertThat(added.state()).isEqualTo(McpServerState.UP);
			assertThat(call(tools, "second_echo", "{\"message\":\"hello\"}")).contains("hello");
			assertThat(context.getBean(McpServerClients.class).client("second").name()).isEqualTo("second");
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			await().atMost(TestServers.PATIENCE)
				.until(() -> !meters.find("mcp.supervisor.state").tag("server", "second").meters().isEmpty());

			long pid = added.pid();
			registry.remove("second");
			assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
			assertThat(names(tools)).noneMatch((name) -> name.startsWith("second_")).contains("first_echo");
			assertThat(supervisors.supervisors()).extracting((supervisor) -> supervisor.name())
				.containsExactly("first");
			assertThat(registry.settings("second")).isEmpty();
			await().atMost(TestServers.PATIENCE)
				.until(() -> meters.getMeters()
					.stream()
					.noneMatch((meter) -> "second".equals(meter.getId().getTag("server"))));
			McpServerStatus untouched = supervisors.supervisor("first").status();
			assertThat(untouched.pid()).isEqualTo(first.pid());
			assertThat(untouched.generation()).isEqualTo(first.generation());

			// the name is free again
			assertThat(registry.add("second", server()).state()).isEqualTo(McpServerState.UP);
			assertThat(call(tools, "second_echo", "{\"message\":\"again\"}")).contains("again");
		});
	}

	@Test
	void theApplicationsStopDuringTheRemovalOfAServerThatIgnoresSigtermEndsItWithinTheBound() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			Map<String, Object> stubborn = new LinkedHashMap<>();
			stubborn.put("command", "sh");
			stubborn.put("args[0]", "-c");
			stubborn.put("args[1]", "trap '' TERM; " + TestServers.demoShellCommand() + "; while :; do sleep 1; done");
			stubborn.put("protocol", "2025-11-25");
			stubborn.put("termination-grace-period", "1s");
			McpServerStatus added = registry.add("stubborn", stubborn);
			assertThat(added.state()).isEqualTo(McpServerState.UP);
			ProcessHandle shell = ProcessHandle.of(added.pid()).orElseThrow();
			List<ProcessHandle> tree = Stream.concat(Stream.of(shell), shell.descendants()).toList();
			assertThat(tree).hasSizeGreaterThanOrEqualTo(2);

			CompletableFuture<Void> removal = CompletableFuture.runAsync(() -> registry.remove("stubborn"));
			await().atMost(TestServers.PATIENCE)
				.until(() -> supervisors.supervisors().stream().noneMatch((s) -> s.name().equals("stubborn")));
			long stopping = System.nanoTime();
			supervisors.stop();
			long took = TestServers.millis(System.nanoTime() - stopping);
			logger.info("stop during the removal of a stubborn tree took " + took + " ms (grace 1000 ms)");
			// the bound: the longest termination grace period of the servers and of the
			// removals under way (the demo server's default 2 s), plus 3 s
			assertThat(took).as("the stop's bound").isLessThan(2000 + 3000);
			assertThat(tree).as("the removed server's tree when the stop returned")
				.noneMatch((process) -> TestServers.isRunning(process.pid()));
			removal.get(TestServers.PATIENCE.toSeconds(), TimeUnit.SECONDS);
		});
	}

	@Test
	void anEditOfAServersFileIsAppliedWithoutTouchingTheOtherServers(@TempDir Path directory, CapturedOutput output)
			throws Exception {
		// laid out as Kubernetes mounts a ConfigMap: mcp.json -> ..data/mcp.json, and an
		// update swaps the ..data link at once
		ConfigMap configMap = new ConfigMap(directory);
		configMap.write(file("kept", "gone"));
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
			.withPropertyValues("mcp.servers-configuration=file:" + directory.resolve("mcp.json"),
					"mcp.reload.interval=200ms", "mcp.defaults.protocol=2025-11-25")
			// what McpServersFileEnvironmentPostProcessor does in an application
			.withInitializer((context) -> McpPropertiesBinder.readServersFiles(context.getEnvironment(),
					ApplicationResourceLoader.get()))
			.run((context) -> {
				McpSupervisors supervisors = context.getBean(McpSupervisors.class);
				McpServerStatus kept = supervisors.supervisor("kept").status();
				long gone = supervisors.supervisor("gone").status().pid();
				assertThat(kept.state()).isEqualTo(McpServerState.UP);

				long edited = System.nanoTime();
				configMap.write(file("kept", "added"));
				await().atMost(TestServers.PATIENCE)
					.until(() -> supervisors.supervisors()
						.stream()
						.map((supervisor) -> supervisor.name())
						.toList()
						.equals(List.of("kept", "added"))
							&& supervisors.supervisor("added").state() == McpServerState.UP);
				long tookMillis = Duration.ofNanos(System.nanoTime() - edited).toMillis();
				System.out.println("Servers file change applied after " + tookMillis + " ms");
				assertThat(ProcessHandle.of(gone).map(ProcessHandle::isAlive).orElse(false)).isFalse();
				McpServerStatus untouched = supervisors.supervisor("kept").status();
				assertThat(untouched.pid()).isEqualTo(kept.pid());
				assertThat(untouched.generation()).isEqualTo(kept.generation());
				assertThat(names(context.getBean(ToolCallbackProvider.class))).contains("added_echo")
					.noneMatch((name) -> name.startsWith("gone_"));

				configMap.write("{ \"mcpServers\": { \"kept\": ");
				await().atMost(TestServers.PATIENCE)
					.until(() -> output.getOut().contains("is refused, and the servers are left as they run"));
				assertThat(output.getOut()).contains("mcp.json").contains("invalid JSON");
				assertThat(supervisors.supervisors()).extracting((supervisor) -> supervisor.name())
					.containsExactly("kept", "added");
				assertThat(supervisors.supervisor("kept").status().pid()).isEqualTo(kept.pid());
			});
	}

	// An mcpServers file with the demo server under each name.
	private static String file(String... names) {
		StdioServerDefinition demo = TestServers.demo("demo", Map.of());
		String args = demo.args().stream().map((arg) -> "\"" + arg + "\"").collect(Collectors.joining(", "));
		return Arrays.stream(names)
			.map((name) -> "\"" + name + "\": { \"command\": \"" + demo.command() + "\", \"args\": [" + args + "] }")
			.collect(Collectors.joining(", ", "{ \"mcpServers\": { ", " } }"));
	}

	private static String call(ToolCallbackProvider tools, String name, String arguments) {
		ToolCallback tool = Arrays.stream(tools.getToolCallbacks())
			.filter((callback) -> callback.getToolDefinition().name().equals(name))
			.findFirst()
			.orElseThrow(() -> new AssertionError(name + " is not among " + names(tools)));
		return tool.call(arguments);
	}

	private static List<String> names(ToolCallbackProvider tools) {
		return Arrays.stream(tools.getToolCallbacks()).map((tool) -> tool.getToolDefinition().name()).toList();
	}

	// the demo server, as the properties of one server
	private static Map<String, Object> server() {
		StdioServerDefinition demo = TestServers.demo("demo", Map.of());
		Map<String, Object> server = new LinkedHashMap<>();
		server.put("command", demo.command());
		for (int i = 0; i < demo.args().size(); i++) {
			server.put("args[" + i + "]", demo.args().get(i));
		}
		server.put("protocol", "2025-11-25");
		return server;
	}

	private static String[] properties(String name) {
		return server().entrySet()
			.stream()
			.map((entry) -> "mcp.servers." + name + "." + entry.getKey() + "=" + entry.getValue())
			.toArray(String[]::new);
	}

	/** A directory laid out as Kubernetes mounts a ConfigMap. */
	private static final class ConfigMap {

		private final Path directory;

		private int version;

		ConfigMap(Path directory) throws IOException {
			this.directory = directory;
			Files.createSymbolicLink(directory.resolve("mcp.json"), Path.of("..data", "mcp.json"));
		}

		void write(String content) throws IOException {
			Path data = Files.createDirectory(this.directory.resolve("..v" + (++this.version)));
			Files.writeString(data.resolve("mcp.json"), content);
			Path link = Files.createSymbolicLink(this.directory.resolve("..data_tmp"), data.getFileName());
			Files.move(link, this.directory.resolve("..data"), StandardCopyOption.ATOMIC_MOVE,
					StandardCopyOption.REPLACE_EXISTING);
		}

	}

}
