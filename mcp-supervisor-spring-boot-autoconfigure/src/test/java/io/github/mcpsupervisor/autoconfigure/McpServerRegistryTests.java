package io.github.mcpsupervisor.autoconfigure;

import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.internal.http.SharedHttpClients;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tests for {@link McpServerRegistry}: servers given while the application runs are
 * checked and resolved as configured ones.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpServerRegistryTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private static final int CYCLES = 20;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withPropertyValues("mcp.defaults.reconnect.enabled=false", "mcp.defaults.initialization-timeout=2s");

	@Test
	void theSupervisorsChangeOnlyThroughTheRegistry() throws NoSuchMethodException {
		assertThat(Modifier.isPublic(McpSupervisors.class.getDeclaredMethod("remove", String.class).getModifiers()))
			.isFalse();
		assertThat(Modifier.isPublic(
				McpSupervisors.class.getDeclaredMethod("add", McpSupervisors.SupervisedServer.class).getModifiers()))
			.isFalse();
	}

	@Test
	void runWithTheApplicationsOwnSupervisorsShouldRefuseToChangeThem() {
		this.contextRunner.withBean(McpSupervisors.class, () -> new McpSupervisors(List.of()))
			.withPropertyValues("mcp.servers.files.command=" + MISSING)
			.run((context) -> {
				McpServerRegistry registry = context.getBean(McpServerRegistry.class);
				assertThatExceptionOfType(UnsupportedOperationException.class)
					.isThrownBy(() -> registry.add("added", Map.of("command", MISSING)))
					.withMessageContaining("own McpSupervisors bean");
				assertThat(registry.settings("added")).isEmpty();
				McpSupervisorProperties changed = bind(
						Map.of("mcp.servers.files.command", MISSING, "mcp.servers.files.request-timeout", "9s"));
				assertThat(registry.apply(changed, "a test")).isZero();
				assertThat(registry.apply(changed, "a test")).as("tried again, as a change that failed").isZero();
				assertThat(registry.settings("files").orElseThrow().requestTimeout())
					.as("the settings in effect, not those refused")
					.isEqualTo(Duration.ofSeconds(20));
			});
	}

	@Test
	void runWhenAServerIsAddedShouldInheritTheDefaultsAsAConfiguredOneDoes() {
		this.contextRunner.withPropertyValues("mcp.defaults.request-timeout=7s", "mcp.defaults.tool-names=spring-ai")
			.run((context) -> {
				McpServerRegistry registry = context.getBean(McpServerRegistry.class);
				registry.add("added", Map.of("command", MISSING, "health-check.interval", "0s"));
				McpSupervisorProperties.Server settings = registry.settings("added").orElseThrow();
				assertThat(settings.requestTimeout()).isEqualTo(Duration.ofSeconds(7));
				assertThat(settings.healthCheck().interval()).isZero();
				assertThat(registry.toolNames("added")).isEqualTo(McpToolNaming.SPRING_AI);
				assertThat(registry.origins("added")).containsEntry("request-timeout", McpServerRegistry.API_ORIGIN);
				assertThat(context.getBean(McpSupervisors.class).supervisor("added")).isNotNull();
			});
	}

	@Test
	void runWhenHttpServersAreAddedReplacedAndRemovedShouldLeaveNoHttpClientBehind() {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			SharedHttpClients clients = context.getBean(SharedHttpClients.class);
			for (int i = 1; i <= CYCLES; i++) {
				registry.add("remote", httpServer(i));
				registry.remove("remote");
			}
			assertThat(clients.size()).as("HTTP clients after %d servers added and removed", CYCLES).isZero();
			registry.add("remote", httpServer(0));
			for (int i = 1; i <= CYCLES; i++) {
				registry.replace("remote", httpServer(i));
			}
			assertThat(clients.size()).as("HTTP clients after %d replaces", CYCLES).isOne();
			registry.remove("remote");
			assertThat(clients.size()).isZero();
		});
	}

	// a server nothing listens for, with HTTP settings of its own
	private static Map<String, String> httpServer(int i) {
		return Map.of("transport", "streamable-http", "url", "http://127.0.0.1:1/mcp", "http.connect-timeout",
				(1000 + i) + "ms");
	}

	@Test
	void runWhenAServerBreaksARuleShouldRefuseItNamingTheRule() {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("bad", Map.of("args[0]", "x")))
				.withMessageContaining("Invalid MCP server 'bad'")
				.withMessageContaining("command is required when transport is stdio");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("bad", Map.of("command", MISSING, "reconnect.initial-delay", "1h")))
				.withMessageContaining("must not exceed max-delay");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("bad", Map.of("command", MISSING, "comand", "typo")))
				.withMessageContaining("Invalid MCP server 'bad'");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("bad name", Map.of("command", MISSING)))
				.withMessageContaining("must be 1 to 32 letters");
			assertThat(context.getBean(McpSupervisors.class).supervisors()).isEmpty();
			assertThat(registry.settings("bad")).isEmpty();
		});
	}

	@Test
	void runWhenAServerHasADurationLongerThanTheMaximumOrAnInvalidVariableNameShouldRefuseIt() {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("slow", Map.of("command", MISSING, "request-timeout", "365000d")))
				.withMessageContaining("requestTimeout must not exceed 365 days");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("slow", Map.of("command", MISSING, "call.timeouts[run]", "365000d")))
				.withMessageContaining("must not exceed 365 days");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("named", Map.of("command", MISSING, "env[A=B]", "x")))
				.withMessageContaining("is not the name of an environment variable");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("tools", Map.of("command", MISSING, "call.timeouts.run_code", "5m")))
				.withMessageContaining("Invalid MCP server 'tools'")
				.withMessageContaining("write it in brackets, call.timeouts[run_code]");
			assertThat(context.getBean(McpSupervisors.class).supervisors()).isEmpty();
		});
	}

	@Test
	void runWhenAServerWithOAuthIsGivenWhileTheApplicationRunsShouldRefuseIt() {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("remote",
						Map.of("transport", "streamable-http", "url", "http://127.0.0.1:1/mcp", "oauth.registration",
								"remote")))
				.withMessageContaining("MCP server 'remote' has oauth settings that differ from those it started with")
				.withMessageContaining("only by restarting the application");
			assertThat(context.getBean(McpSupervisors.class).supervisors()).isEmpty();
			assertThat(registry.settings("remote")).isEmpty();
		});
	}

	@Test
	void runWhenAReloadCannotApplyAServerShouldTryItAgainAtTheNextReload(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			McpSupervisorProperties next = new Binder(new MapConfigurationPropertySource(
					Map.of("mcp.servers.remote.transport", "streamable-http", "mcp.servers.remote.url",
							"http://127.0.0.1:1/mcp", "mcp.servers.remote.oauth.registration", "remote")))
				.bind("mcp", McpSupervisorProperties.class)
				.get();
			assertThat(registry.apply(next, "a test")).isZero();
			assertThat(registry.apply(next, "a test")).isZero();
			assertThat(output.getOut().split("MCP server 'remote' could not be added", -1)).hasSize(3);
			assertThat(registry.settings("remote")).isEmpty();
		});
	}

	@Test
	void runWhileAChangeIsUnderWayShouldStillShowTheOriginsOfAConfiguredServer() {
		this.contextRunner.withPropertyValues("mcp.servers.one.command=" + MISSING).run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			CountDownLatch held = new CountDownLatch(1);
			CountDownLatch release = new CountDownLatch(1);
			// a change holds the registry during the first attempt of its server
			Thread change = new Thread(() -> {
				synchronized (registry) {
					held.countDown();
					awaitQuietly(release);
				}
			});
			change.start();
			try {
				assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
				Map<String, String> origins = CompletableFuture.supplyAsync(() -> registry.origins("one"))
					.get(10, TimeUnit.SECONDS);
				assertThat(origins).containsEntry("request-timeout", "built-in");
			}
			finally {
				release.countDown();
				change.join();
			}
		});
	}

	private static void awaitQuietly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void runWhenANameIsTakenShouldRefuseItAndItsRelaxedSpellings() {
		this.contextRunner.withPropertyValues("mcp.servers.my-server.command=" + MISSING).run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("my-server", Map.of("command", MISSING)))
				.withMessageContaining("exists already");
			assertThatExceptionOfType(IllegalArgumentException.class)
				.isThrownBy(() -> registry.add("MY-SERVER", Map.of("command", MISSING)))
				.withMessageContaining("relaxed binding");
		});
	}

	@Test
	void runWhenAConfiguredServerIsReplacedAndRemovedShouldForgetItsSettings() {
		this.contextRunner.withPropertyValues("mcp.servers.one.command=" + MISSING).run((context) -> {
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			registry.replace("one", Map.of("command", MISSING, "request-timeout", "3s"));
			assertThat(registry.settings("one").orElseThrow().requestTimeout()).isEqualTo(Duration.ofSeconds(3));
			registry.remove("one");
			assertThat(registry.settings("one")).isEmpty();
			assertThat(context.getBean(McpSupervisors.class).supervisors()).isEmpty();
		});
	}

	private static McpSupervisorProperties bind(Map<String, String> properties) {
		return new Binder(new MapConfigurationPropertySource(properties)).bind("mcp", McpSupervisorProperties.class)
			.get();
	}

}
