package io.github.mcpsupervisor.autoconfigure;

import java.security.Principal;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.actuate.McpEndpoint;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerAction;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerConfigurationDescriptor;
import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDescriptor;
import io.github.mcpsupervisor.actuate.McpEndpointWebExtension;
import io.github.mcpsupervisor.actuate.McpServersHealthContributor;
import io.github.mcpsupervisor.autoconfigure.endpoint.McpEndpointAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.health.McpHealthContributorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.metrics.McpMetricsAutoConfiguration;
import io.github.mcpsupervisor.metrics.internal.McpSupervisorMetrics;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * Auto-configuration of the health component, the endpoint and the metrics.
 */
class McpActuatorAutoConfigurationTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class,
				McpHealthContributorAutoConfiguration.class, McpEndpointAutoConfiguration.class,
				McpMetricsAutoConfiguration.class, HealthContributorAutoConfiguration.class,
				HealthContributorRegistryAutoConfiguration.class, HealthEndpointAutoConfiguration.class,
				EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class))
		.withPropertyValues("mcp.servers.broken.command=" + MISSING, "mcp.servers.broken.env.API_TOKEN=s3cr3t");

	@Test
	void runShouldProvideTheHealthContributor() {
		this.contextRunner.run((context) -> assertThat(context).hasSingleBean(McpServersHealthContributor.class)
			.hasBean("mcpHealthContributor"));
	}

	@Test
	void runWhenTheHealthIndicatorIsDisabledShouldNotProvideIt() {
		this.contextRunner.withPropertyValues("management.health.mcp.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpServersHealthContributor.class));
	}

	@Test
	void runWithAUserDefinedHealthIndicatorShouldBackOff() {
		HealthIndicator mine = () -> Health.up().build();
		this.contextRunner.withBean("mcpHealthIndicator", HealthIndicator.class, () -> mine).run((context) -> {
			assertThat(context).doesNotHaveBean(McpServersHealthContributor.class);
			assertThat(context.getBean("mcpHealthIndicator")).isSameAs(mine);
		});
	}

	@Test
	void runWithAUserDefinedHealthContributorShouldBackOff() {
		McpServersHealthContributor mine = new McpServersHealthContributor(new McpSupervisors(List.of()),
				Clock.systemUTC());
		this.contextRunner.withBean("mcpHealthContributor", McpServersHealthContributor.class, () -> mine)
			.run((context) -> assertThat(context.getBean(McpServersHealthContributor.class)).isSameAs(mine));
	}

	@Test
	void runWithAnOptionalServerThatFailedShouldBeUpWithTheFailureInTheDetails() {
		this.contextRunner.run((context) -> {
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			assertThat(health.healthForPath("mcp").getStatus()).isEqualTo(Status.UP);
			IndicatedHealthDescriptor broken = (IndicatedHealthDescriptor) health.healthForPath("mcp", "broken");
			assertThat(broken.getStatus()).isEqualTo(Status.UP);
			assertThat(broken.getDetails().get("state")).isEqualTo(McpServerState.FAILED);
			assertThat(broken.getDetails().get("required")).isEqualTo(false);
			assertThat(broken.getDetails().get("lastError")).asString().contains(MISSING);
		});
	}

	@Test
	void runWithARequiredServerThatIsNotUpShouldBeDown() {
		this.contextRunner.withPropertyValues("mcp.servers.broken.required=true").run((context) -> {
			HealthEndpoint health = context.getBean(HealthEndpoint.class);
			assertThat(health.healthForPath("mcp").getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.healthForPath("mcp", "broken").getStatus()).isEqualTo(Status.DOWN);
		});
	}

	@Test
	void runWhenTheEndpointIsNotExposedShouldNotProvideIt() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class)
			.doesNotHaveBean(McpEndpointWebExtension.class));
	}

	@Test
	void runWhenTheEndpointIsExposedShouldProvideItAndItsWebExtension() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.run((context) -> assertThat(context).hasSingleBean(McpEndpoint.class)
				.hasSingleBean(McpEndpointWebExtension.class));
	}

	@Test
	void runWhenTheEndpointsAccessIsNoneShouldNotProvideIt() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp", "management.endpoint.mcp.access=NONE")
			.run((context) -> assertThat(context).doesNotHaveBean(McpEndpoint.class));
	}

	@Test
	void runWithAUserDefinedEndpointShouldBackOff() {
		McpEndpoint mine = new McpEndpoint(new McpSupervisors(List.of()), (name) -> null, List.of(), Show.NEVER,
				Clock.systemUTC());
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.withBean(McpEndpoint.class, () -> mine)
			.run((context) -> assertThat(context.getBean(McpEndpoint.class)).isSameAs(mine));
	}

	@Test
	void runShouldSanitizeEnvironmentValuesByDefault() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp")
			.run((context) -> assertThat(env(context)).containsExactly(entry("API_TOKEN", "******")));
	}

	@Test
	void runWithShowValuesAlwaysShouldShowEnvironmentValues() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp",
					"management.endpoint.mcp.show-values=always")
			.run((context) -> assertThat(env(context)).containsExactly(entry("API_TOKEN", "s3cr3t")));
	}

	@Test
	void runWithShowValuesAlwaysAndASanitizingFunctionShouldApplyIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.broken.env.LOG_LEVEL=warn",
					"management.endpoints.web.exposure.include=mcp", "management.endpoint.mcp.show-values=always")
			.withBean(SanitizingFunction.class,
					() -> SanitizingFunction.of((data) -> data.withValue("[redacted]")).ifKeyEndsWith("token"))
			.run((context) -> assertThat(env(context)).containsExactly(entry("API_TOKEN", "[redacted]"),
					entry("LOG_LEVEL", "warn")));
	}

	@Test
	void runWithShowValuesWhenAuthorizedShouldShowEnvironmentValuesToAuthorizedUsersOverHttpOnly() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp",
					"management.endpoint.mcp.show-values=when-authorized", "management.endpoint.mcp.roles=OPERATOR")
			.run((context) -> {
				McpEndpointWebExtension extension = context.getBean(McpEndpointWebExtension.class);
				assertThat(env(extension.server(user("OPERATOR"), "broken").getBody()))
					.containsExactly(entry("API_TOKEN", "s3cr3t"));
				assertThat(env(extension.server(user("VIEWER"), "broken").getBody()))
					.containsExactly(entry("API_TOKEN", "******"));
				assertThat(env(extension.server(SecurityContext.NONE, "broken").getBody()))
					.containsExactly(entry("API_TOKEN", "******"));
			});
	}

	@Test
	void runWhenTheServerIsUnknownShouldAnswerNotFoundOverHttp() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=mcp").run((context) -> {
			McpEndpointWebExtension extension = context.getBean(McpEndpointWebExtension.class);
			WebEndpointResponse<Object> read = extension.server(SecurityContext.NONE, "nope");
			WebEndpointResponse<Object> reset = extension.act("nope", McpServerAction.RESET);
			assertThat(read.getStatus()).isEqualTo(404);
			assertThat(reset.getStatus()).isEqualTo(404);
			assertThat(reset.getBody()).asString().contains("No MCP server named 'nope'").contains("[broken]");
		});
	}

	@Test
	void runWithAMeterRegistryShouldProvideTheMetrics() {
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run((context) -> {
			assertThat(context).hasSingleBean(McpSupervisorMetrics.class);
			MeterRegistry registry = context.getBean(MeterRegistry.class);
			// notifications follow the first outcome that start() waits for by a moment
			await().atMost(Duration.ofSeconds(10))
				.untilAsserted(() -> assertThat(registry.get("mcp.supervisor.state")
					.tags("server", "broken", "state", "failed")
					.gauge()
					.value()).isEqualTo(1.0));
			assertThat(registry.get("mcp.supervisor.attempts").tag("outcome", "failure").counter().count())
				.isEqualTo(1.0);
		});
	}

	@Test
	void runWithoutAMeterRegistryShouldNotProvideTheMetrics() {
		this.contextRunner.run((context) -> assertThat(context).doesNotHaveBean(McpSupervisorMetrics.class));
	}

	@Test
	void runWithUserDefinedMetricsShouldBackOff() {
		McpSupervisorMetrics mine = new McpSupervisorMetrics(new SimpleMeterRegistry());
		this.contextRunner.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
			.withBean(McpSupervisorMetrics.class, () -> mine)
			.run((context) -> assertThat(context.getBean(McpSupervisorMetrics.class)).isSameAs(mine));
	}

	@Test
	void runWithAStreamableHttpServerShouldShowItsHttpSettingsToolNamesAndTheirOrigins() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp",
					"mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=http://127.0.0.1:1/mcp",
					"mcp.servers.remote.http.connect-timeout=3s", "mcp.servers.remote.tool-names=spring-ai",
					"mcp.defaults.http.version=http-2", "mcp.defaults.http.proxy.host=proxy.example",
					"mcp.defaults.http.proxy.port=3128", "mcp.defaults.protocol=2025-11-25")
			.run((context) -> {
				McpServerConfigurationDescriptor remote = ((McpServerDescriptor) context.getBean(McpEndpoint.class)
					.server("remote")).configuration();
				assertThat(remote).isNotNull();
				assertThat(remote.http()).isEqualTo(new McpServerConfigurationDescriptor.Http(Duration.ofSeconds(3),
						"http-2", null, "proxy.example", 3128));
				assertThat(remote.toolNames()).isEqualTo("spring-ai");
				assertThat(remote.origins()).containsEntry("http.connect-timeout", "server")
					.containsEntry("http.version", "defaults")
					.containsEntry("http.ssl.bundle", "built-in")
					.containsEntry("http.proxy", "defaults")
					.containsEntry("tool-names", "server")
					.containsEntry("protocol", "defaults")
					.containsEntry("log-level", "built-in")
					.containsEntry("inherit-env", "built-in")
					.containsEntry("sampling.max-concurrent", "built-in");
				McpServerConfigurationDescriptor broken = ((McpServerDescriptor) context.getBean(McpEndpoint.class)
					.server("broken")).configuration();
				assertThat(broken).isNotNull();
				assertThat(broken.http()).as("not for stdio").isNull();
				assertThat(broken.toolNames()).isEqualTo("prefixed");
				assertThat(broken.standby()).isFalse();
				assertThat(remote.standby()).as("not for streamable-http").isNull();
			});
	}

	@Test
	void runWithAServerShouldShowEveryEffectiveValue() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp", "mcp.defaults.inherit-env=AWS_*",
					"mcp.defaults.sampling.max-tokens=512", "mcp.servers.broken.log-level=warning",
					"mcp.servers.broken.protocol=2026-07-28", "mcp.servers.broken.elicitation.max-per-minute=3",
					"mcp.servers.broken.tools-when-down=keep", "mcp.servers.broken.roots=file:///srv/data")
			.run((context) -> {
				McpServerConfigurationDescriptor broken = ((McpServerDescriptor) context.getBean(McpEndpoint.class)
					.server("broken")).configuration();
				assertThat(broken).isNotNull();
				assertThat(broken.inheritEnv()).containsExactly("AWS_*");
				assertThat(broken.protocol()).isEqualTo("2026-07-28");
				assertThat(broken.logLevel()).isEqualTo("warning");
				assertThat(broken.sampling()).isEqualTo(new McpServerConfigurationDescriptor.Sampling(2, 10, 512));
				assertThat(broken.elicitation()).isEqualTo(new McpServerConfigurationDescriptor.Elicitation(2, 3));
				assertThat(broken.toolsWhenDown()).isEqualTo("keep");
				assertThat(broken.roots()).containsExactly("file:///srv/data");
				assertThat(broken.oauth()).as("without OAuth").isNull();
			});
	}

	@Test
	void runWithToolTimeoutsShouldShowTheMergedMapAndTheOriginOfEachEntry() {
		this.contextRunner
			.withPropertyValues("management.endpoints.web.exposure.include=mcp",
					"mcp.defaults.call.timeouts[run_code]=5m", "mcp.defaults.call.timeouts[lookup]=2s",
					"mcp.servers.broken.call.timeouts[lookup]=3s")
			.run((context) -> {
				McpServerConfigurationDescriptor broken = ((McpServerDescriptor) context.getBean(McpEndpoint.class)
					.server("broken")).configuration();
				assertThat(broken).isNotNull();
				assertThat(broken.call().timeouts())
					.isEqualTo(Map.of("lookup", Duration.ofSeconds(3), "run_code", Duration.ofMinutes(5)));
				assertThat(broken.origins()).containsEntry("call.timeouts[lookup]", "server")
					.containsEntry("call.timeouts[run_code]", "defaults");
			});
	}

	private static Map<String, @Nullable Object> env(AssertableApplicationContext context) {
		return env(context.getBean(McpEndpoint.class).server("broken"));
	}

	private static Map<String, @Nullable Object> env(@Nullable Object descriptor) {
		McpServerConfigurationDescriptor configuration = ((McpServerDescriptor) descriptor).configuration();
		assertThat(configuration).isNotNull();
		return configuration.env();
	}

	private static SecurityContext user(String role) {
		return new SecurityContext() {

			@Override
			public Principal getPrincipal() {
				return () -> "user";
			}

			@Override
			public boolean isUserInRole(String candidate) {
				return role.equals(candidate);
			}

		};
	}

}
