package io.github.mcpsupervisor.autoconfigure.health;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;

import io.github.mcpsupervisor.actuate.McpServersHealthContributor;
import io.github.mcpsupervisor.autoconfigure.McpServerRegistry;
import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.internal.McpConnectorFactory;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.actuate.endpoint.CompositeHealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthDescriptor;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.actuate.endpoint.IndicatedHealthDescriptor;
import org.springframework.boot.health.autoconfigure.actuate.endpoint.HealthEndpointAutoConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code mcp} health component as Spring Boot's health endpoint aggregates it: one
 * member per server of the moment, DOWN or OUT_OF_SERVICE by its required servers only.
 * Each server's command names the outcome of its every attempt.
 */
class McpHealthContributorAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(McpSupervisorAutoConfiguration.class, McpHealthContributorAutoConfiguration.class,
						HealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class,
						HealthEndpointAutoConfiguration.class, EndpointAutoConfiguration.class))
		.withUserConfiguration(FakeServers.class)
		.withPropertyValues("mcp.defaults.reconnect.enabled=false");

	@Test
	void runShouldMakeTheComponentACompositeOfTheServersNamedMcp() {
		this.contextRunner.withPropertyValues("mcp.servers.files.command=connect", "mcp.servers.web.command=connect")
			.run((context) -> {
				assertThat(context).hasSingleBean(McpServersHealthContributor.class).hasBean("mcpHealthContributor");
				awaitState(context, "files", McpServerState.UP);
				awaitState(context, "web", McpServerState.UP);
				HealthDescriptor mcp = health(context, "mcp");
				assertThat(mcp).isInstanceOf(CompositeHealthDescriptor.class);
				assertThat(((CompositeHealthDescriptor) mcp).getComponents()).containsOnlyKeys("files", "web");
				assertThat(mcp.getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void runWithARequiredServerThatFailedShouldBeDownWithThatServerDown() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=misconfigured", "mcp.servers.files.required=true",
					"mcp.servers.web.command=connect", "mcp.servers.web.required=true")
			.run((context) -> {
				awaitState(context, "files", McpServerState.FAILED);
				awaitState(context, "web", McpServerState.UP);
				assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.DOWN);
				assertThat(health(context, "mcp", "files").getStatus()).isEqualTo(Status.DOWN);
				assertThat(health(context, "mcp", "web").getStatus()).isEqualTo(Status.UP);
				assertThat(details(context, "files")).containsEntry("state", McpServerState.FAILED)
					.containsEntry("required", true);
			});
	}

	@Test
	void runWithARequiredServerWaitingForAnAuthorizationShouldBeOutOfService() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=unauthorized", "mcp.servers.files.required=true",
					"mcp.servers.web.command=connect", "mcp.servers.web.required=true")
			.run((context) -> {
				awaitState(context, "files", McpServerState.NEEDS_AUTHORIZATION);
				awaitState(context, "web", McpServerState.UP);
				assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(health(context, "mcp", "files").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
				assertThat(details(context, "files")).doesNotContainKey("authorization");
			});
	}

	@Test
	void runWithARequiredServerDownAndAnotherWaitingShouldBeDown() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=unauthorized", "mcp.servers.files.required=true",
					"mcp.servers.web.command=misconfigured", "mcp.servers.web.required=true")
			.run((context) -> {
				awaitState(context, "files", McpServerState.NEEDS_AUTHORIZATION);
				awaitState(context, "web", McpServerState.FAILED);
				assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.DOWN);
			});
	}

	@Test
	void runWithOptionalServersInTroubleShouldBeUpWithTheirTroubleInTheirDetailsOnly() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=misconfigured", "mcp.servers.web.command=unauthorized")
			.run((context) -> {
				awaitState(context, "files", McpServerState.FAILED);
				awaitState(context, "web", McpServerState.NEEDS_AUTHORIZATION);
				assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.UP);
				assertThat(health(context, "mcp", "files").getStatus()).isEqualTo(Status.UP);
				assertThat(details(context, "files")).containsEntry("state", McpServerState.FAILED)
					.containsEntry("required", false);
				assertThat(details(context, "web")).containsEntry("state", McpServerState.NEEDS_AUTHORIZATION)
					.doesNotContainKey("authorization");
				assertThat(health(context).getStatus()).isEqualTo(Status.UP);
			});
	}

	@Test
	void runWithoutServersShouldLeaveTheComponentOutAsSpringBootDoesAnEmptyComposite() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(McpServersHealthContributor.class);
			assertThat(health(context, "mcp")).isNull();
			assertThat(health(context).getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void runWhenAServerIsAddedAndAnotherRemovedShouldFollowTheCurrentServers() {
		this.contextRunner.withPropertyValues("mcp.servers.files.command=connect").run((context) -> {
			awaitState(context, "files", McpServerState.UP);
			McpServerRegistry registry = context.getBean(McpServerRegistry.class);
			registry.add("web", Map.of("command", "misconfigured", "required", "true"));
			awaitState(context, "web", McpServerState.FAILED);
			assertThat(health(context, "mcp", "web").getStatus()).isEqualTo(Status.DOWN);
			assertThat(components(context)).containsOnlyKeys("files", "web");
			assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.DOWN);
			registry.remove("web");
			assertThat(health(context, "mcp", "web")).isNull();
			assertThat(components(context)).containsOnlyKeys("files");
			assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.UP);
		});
	}

	@Test
	void runWithAGroupThatNamesOneServerShouldAggregateThatServerOnly() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=connect", "mcp.servers.files.required=true",
					"mcp.servers.web.command=misconfigured", "mcp.servers.web.required=true",
					"management.endpoint.health.group.files.include=mcp/files")
			.run((context) -> {
				awaitState(context, "files", McpServerState.UP);
				awaitState(context, "web", McpServerState.FAILED);
				assertThat(health(context, "mcp").getStatus()).isEqualTo(Status.DOWN);
				CompositeHealthDescriptor group = (CompositeHealthDescriptor) health(context, "files");
				assertThat(group.getStatus()).isEqualTo(Status.UP);
				CompositeHealthDescriptor mcp = (CompositeHealthDescriptor) group.getComponents().get("mcp");
				assertThat(mcp.getComponents()).containsOnlyKeys("files");
			});
	}

	@Test
	void runWithAGroupThatNamesAServerAddedLaterShouldFailToStartUnlessItsMembershipIsNotValidated() {
		this.contextRunner.withPropertyValues("management.endpoint.health.group.late.include=mcp/late")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessageContainingAll("'mcp/late'", "does not exist"));
		this.contextRunner
			.withPropertyValues("management.endpoint.health.group.late.include=mcp/late",
					"management.endpoint.health.validate-group-membership=false")
			.run((context) -> {
				assertThat(health(context, "late")).isNull();
				context.getBean(McpServerRegistry.class)
					.add("late", Map.of("command", "unauthorized", "required", "true"));
				awaitState(context, "late", McpServerState.NEEDS_AUTHORIZATION);
				assertThat(health(context, "late").getStatus()).isEqualTo(Status.OUT_OF_SERVICE);
			});
	}

	@Test
	void runWhenTheHealthIndicatorIsDisabledShouldLeaveTheComponentOut() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.command=connect", "management.health.mcp.enabled=false")
			.run((context) -> {
				assertThat(context).doesNotHaveBean(McpServersHealthContributor.class);
				assertThat(health(context, "mcp")).isNull();
			});
	}

	private static void awaitState(AssertableApplicationContext context, String server, McpServerState state) {
		McpSupervisors supervisors = context.getBean(McpSupervisors.class);
		await().atMost(Duration.ofSeconds(30)).until(() -> supervisors.supervisor(server).state() == state);
	}

	private static @Nullable HealthDescriptor health(AssertableApplicationContext context, String... path) {
		HealthEndpoint endpoint = context.getBean(HealthEndpoint.class);
		return (path.length > 0) ? endpoint.healthForPath(path) : endpoint.health();
	}

	private static Map<String, HealthDescriptor> components(AssertableApplicationContext context) {
		return ((CompositeHealthDescriptor) health(context, "mcp")).getComponents();
	}

	private static Map<String, Object> details(AssertableApplicationContext context, String server) {
		return ((IndicatedHealthDescriptor) health(context, "mcp", server)).getDetails();
	}

	/** Servers whose command names the outcome of each of their attempts. */
	@Configuration(proxyBeanMethods = false)
	static class FakeServers {

		@Bean
		McpConnectorFactory fakeConnectors() {
			return (server) -> new FakeConnector()
				.always(Outcome.valueOf(String.valueOf(server.command()).toUpperCase(Locale.ROOT)));
		}

	}

}
