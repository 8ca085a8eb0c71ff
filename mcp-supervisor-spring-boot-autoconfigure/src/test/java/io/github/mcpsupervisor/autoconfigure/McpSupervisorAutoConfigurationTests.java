package io.github.mcpsupervisor.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorScheduler;
import io.github.mcpsupervisor.supervisor.ThreadPoolSupervisorScheduler;
import io.github.mcpsupervisor.tool.McpSupervisorToolCallbackProvider;
import org.junit.jupiter.api.Test;

import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Auto-configuration and validation of {@code mcp.servers[*]}.
 */
class McpSupervisorAutoConfigurationTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class));

	@Test
	void runWhenNoServersAreConfiguredShouldProvideAnEmptyToolCallbackProvider() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisors.class)
				.hasSingleBean(McpSupervisorToolCallbackProvider.class)
				.hasSingleBean(ThreadPoolSupervisorScheduler.class);
			assertThat(context.getBean(ToolCallbackProvider.class).getToolCallbacks()).isEmpty();
		});
	}

	@Test
	void runWithAServerShouldBindTheDefaults() {
		this.contextRunner.withPropertyValues("mcp.servers[0].name=demo", "mcp.servers[0].command=" + MISSING)
			.run((context) -> {
				McpSupervisorProperties.Server server = context.getBean(McpSupervisorProperties.class).servers().get(0);
				assertThat(server.transport()).isEqualTo(McpTransportType.STDIO);
				assertThat(server.args()).isEmpty();
				assertThat(server.env()).isEmpty();
				assertThat(server.workingDirectory()).isNull();
				assertThat(server.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
				assertThat(server.initializationTimeout()).isEqualTo(Duration.ofSeconds(20));
				assertThat(server.terminationGracePeriod()).isEqualTo(Duration.ofSeconds(2));
				assertThat(server.failOnStartupError()).isFalse();
				assertThat(server.reconnect().toPolicy()).isEqualTo(ReconnectPolicy.defaults());
			});
	}

	@Test
	void runWithAServerShouldBoundItsFirstAttemptByTheHandshakeTheListingAndATermination() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=demo", "mcp.servers[0].command=" + MISSING,
					"mcp.servers[0].initialization-timeout=7s", "mcp.servers[0].request-timeout=5s",
					"mcp.servers[0].termination-grace-period=1s")
			.run((context) -> assertThat(context.getBean(McpSupervisors.class).servers().get(0).startupTimeout())
				.isEqualTo(Duration.ofSeconds(7 + 5 + 1 + 3)));
	}

	@Test
	void runWithAMissingCommandShouldStartWithTheServerFailed() {
		this.contextRunner.withPropertyValues("mcp.servers[0].name=demo", "mcp.servers[0].command=" + MISSING)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(McpSupervisors.class).supervisor("demo").state())
					.isEqualTo(McpServerState.FAILED);
			});
	}

	@Test
	void runWithFailOnStartupErrorShouldFailNamingTheServerAndTheCause() {
		withDemoServer("mcp.servers[0].fail-on-startup-error=true")
			.run((context) -> assertThat(failure(context)).contains("MCP server 'demo' is FAILED")
				.contains(MISSING)
				.contains("fail-on-startup-error"));
	}

	@Test
	void runWithoutANameShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers[0].command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].name")
				.contains("must not be blank"));
	}

	@Test
	void runWithAnInvalidNameShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers[0].name=my server", "mcp.servers[0].command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].name")
				.contains("my server")
				.contains("must be 1 to 32 letters, digits, '_' or '-'"));
	}

	@Test
	void runWithANameLongerThan32CharactersShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=" + "a".repeat(33), "mcp.servers[0].command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].name")
				.contains("must be 1 to 32 letters"));
	}

	@Test
	void runWithDuplicateNamesShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=demo", "mcp.servers[0].command=" + MISSING,
					"mcp.servers[1].name=demo", "mcp.servers[1].command=" + MISSING)
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[1].name")
				.contains("must be unique, but servers[0] has the same name"));
	}

	@Test
	void runWithAnUnknownTransportShouldFail() {
		withDemoServer("mcp.servers[0].transport=carrier-pigeon")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].transport")
				.contains("carrier-pigeon"));
	}

	@Test
	void runWithoutACommandShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers[0].name=demo")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].command")
				.contains("is required when transport is stdio"));
	}

	@Test
	void runWithAMissingWorkingDirectoryShouldFail() {
		withDemoServer("mcp.servers[0].working-directory=/nonexistent/dir")
			.run((context) -> assertThat(failure(context)).contains("servers[0].workingDirectory")
				.contains("/nonexistent/dir")
				.contains("must be an existing directory"));
	}

	@Test
	void runWithANonPositiveRequestTimeoutShouldFail() {
		withDemoServer("mcp.servers[0].request-timeout=0s")
			.run((context) -> assertThat(failure(context)).contains("servers[0].requestTimeout")
				.contains("PT0S")
				.contains("must be positive"));
	}

	@Test
	void runWithANegativeInitializationTimeoutShouldFail() {
		withDemoServer("mcp.servers[0].initialization-timeout=-1s")
			.run((context) -> assertThat(failure(context)).contains("servers[0].initializationTimeout")
				.contains("PT-1S")
				.contains("must be positive"));
	}

	@Test
	void runWithAnInitialDelayAboveTheMaxDelayShouldFail() {
		withDemoServer("mcp.servers[0].reconnect.initial-delay=10s", "mcp.servers[0].reconnect.max-delay=5s")
			.run((context) -> assertThat(failure(context)).contains("servers[0].reconnect.initialDelay")
				.contains("must not exceed max-delay (5000 ms)"));
	}

	@Test
	void runWithZeroMaxAttemptsShouldFail() {
		withDemoServer("mcp.servers[0].reconnect.max-attempts=0")
			.run((context) -> assertThat(failure(context)).contains("servers[0].reconnect.maxAttempts")
				.contains("must be greater than or equal to 1"));
	}

	@Test
	void runWithAJitterAboveOneShouldFail() {
		withDemoServer("mcp.servers[0].reconnect.jitter=1.5")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].reconnect.jitter").contains("1.5"));
	}

	@Test
	void runWithAServerShouldBindTheCallAndHealthCheckDefaults() {
		withDemoServer().run((context) -> {
			McpSupervisorProperties.Server server = context.getBean(McpSupervisorProperties.class).servers().get(0);
			assertThat(server.call().toPolicy()).isEqualTo(CallPolicy.defaults());
			assertThat(server.healthCheck().toPolicy()).isEqualTo(HealthCheckPolicy.defaults());
		});
	}

	@Test
	void runWithCallAndHealthCheckSettingsShouldBindThem() {
		withDemoServer("mcp.servers[0].call.wait-for-recovery=0s", "mcp.servers[0].call.retry=always",
				"mcp.servers[0].call.trust-annotations=false", "mcp.servers[0].call.retry-tools=search,fetch",
				"mcp.servers[0].health-check.interval=0s", "mcp.servers[0].health-check.timeout=1s",
				"mcp.servers[0].health-check.failure-threshold=3")
			.run((context) -> {
				McpSupervisorProperties.Server server = context.getBean(McpSupervisorProperties.class).servers().get(0);
				assertThat(server.call().toPolicy()).isEqualTo(
						new CallPolicy(Duration.ZERO, CallPolicy.Retry.ALWAYS, false, Set.of("search", "fetch")));
				assertThat(server.healthCheck().toPolicy().isEnabled()).isFalse();
				assertThat(server.healthCheck().failureThreshold()).isEqualTo(3);
			});
	}

	@Test
	void runWithANegativeWaitForRecoveryShouldFail() {
		withDemoServer("mcp.servers[0].call.wait-for-recovery=-1s")
			.run((context) -> assertThat(failure(context)).contains("servers[0].call.waitForRecovery")
				.contains("must not be negative"));
	}

	@Test
	void runWithAnUnknownRetryModeShouldFail() {
		withDemoServer("mcp.servers[0].call.retry=sometimes")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].call.retry").contains("sometimes"));
	}

	@Test
	void runWithANonPositiveHealthCheckTimeoutShouldFail() {
		withDemoServer("mcp.servers[0].health-check.timeout=0s")
			.run((context) -> assertThat(failure(context)).contains("servers[0].healthCheck.timeout")
				.contains("must be positive"));
	}

	@Test
	void runWithAZeroFailureThresholdShouldFail() {
		withDemoServer("mcp.servers[0].health-check.failure-threshold=0")
			.run((context) -> assertThat(failure(context)).contains("servers[0].healthCheck.failureThreshold")
				.contains("must be greater than or equal to 1"));
	}

	@Test
	void runWithAStreamableHttpServerWithoutAUrlShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers[0].name=remote", "mcp.servers[0].transport=streamable-http")
			.run((context) -> assertThat(failure(context)).contains("servers[0].url")
				.contains("is required when transport is streamable-http"));
	}

	@Test
	void runWithAStreamableHttpServerWithARelativeUrlShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=remote", "mcp.servers[0].transport=streamable-http",
					"mcp.servers[0].url=/mcp")
			.run((context) -> assertThat(failure(context)).contains("servers[0].url")
				.contains("must be an absolute http or https URL"));
	}

	@Test
	void runWithAStreamableHttpServerWithAnFtpUrlShouldFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=remote", "mcp.servers[0].transport=streamable-http",
					"mcp.servers[0].url=ftp://127.0.0.1/mcp")
			.run((context) -> assertThat(failure(context)).contains("must be an absolute http or https URL"));
	}

	@Test
	void runWithAStreamableHttpServerShouldBindItsUrlAndHeaders() {
		this.contextRunner
			.withPropertyValues("mcp.servers[0].name=remote", "mcp.servers[0].transport=streamable-http",
					"mcp.servers[0].url=http://127.0.0.1:1/mcp", "mcp.servers[0].headers.Authorization=Bearer x",
					"mcp.servers[0].reconnect.enabled=false")
			.run((context) -> {
				McpSupervisorProperties.Server server = context.getBean(McpSupervisorProperties.class).servers().get(0);
				assertThat(server.toHttpDefinition().url()).hasToString("http://127.0.0.1:1/mcp");
				assertThat(server.toHttpDefinition().headers()).containsEntry("Authorization", "Bearer x");
			});
	}

	@Test
	void runWithAnUnknownKeyUnderAServerShouldFail() {
		withDemoServer("mcp.servers[0].comand=typo")
			.run((context) -> assertThat(failure(context)).contains("mcp.servers[0].comand"));
	}

	@Test
	void runWithUserDefinedBeansShouldBackOff() {
		this.contextRunner.withUserConfiguration(UserBeans.class).run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisors.class)
				.hasSingleBean(SupervisorScheduler.class)
				.hasSingleBean(McpConnectorFactory.class)
				.hasSingleBean(McpSupervisorToolCallbackProvider.class);
			assertThat(context.getBean(McpSupervisors.class)).isSameAs(context.getBean(UserBeans.class).supervisors);
			assertThat(context).getBean("userScheduler").isSameAs(context.getBean(SupervisorScheduler.class));
			assertThat(context).getBean("userProvider")
				.isSameAs(context.getBean(McpSupervisorToolCallbackProvider.class));
			assertThat(context).getBean("userConnectorFactory").isSameAs(context.getBean(McpConnectorFactory.class));
		});
	}

	/**
	 * A runner with a server 'demo' whose command does not exist, plus the given
	 * properties.
	 */
	private ApplicationContextRunner withDemoServer(String... properties) {
		return this.contextRunner.withPropertyValues("mcp.servers[0].name=demo", "mcp.servers[0].command=" + MISSING)
			.withPropertyValues(properties);
	}

	private static String failure(AssertableApplicationContext context) {
		assertThat(context).hasFailed();
		StringBuilder messages = new StringBuilder();
		for (Throwable ex = context.getStartupFailure(); ex != null; ex = ex.getCause()) {
			messages.append(ex.getMessage()).append('\n');
		}
		return messages.toString();
	}

	@Configuration(proxyBeanMethods = false)
	static class UserBeans {

		final McpSupervisors supervisors = new McpSupervisors(List.of());

		@Bean
		McpSupervisors userSupervisors() {
			return this.supervisors;
		}

		@Bean(destroyMethod = "close")
		ThreadPoolSupervisorScheduler userScheduler() {
			return new ThreadPoolSupervisorScheduler();
		}

		@Bean
		McpConnectorFactory userConnectorFactory() {
			return (server) -> {
				throw new IllegalStateException("not used: " + Map.of("server", server));
			};
		}

		@Bean
		McpSupervisorToolCallbackProvider userProvider(McpSupervisors supervisors) {
			return new McpSupervisorToolCallbackProvider(supervisors);
		}

	}

}
