package io.github.mcpsupervisor.actuate;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.actuate.McpEndpoint.McpServerDetails;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.FakeConnector.Outcome;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors.Entry;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The members of the {@code mcp} health component: one per server of the moment, each
 * with a status that counts for required servers only, and the details the endpoint shows
 * with bounded stderr.
 */
class McpServersHealthContributorTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	@ParameterizedTest
	@EnumSource(McpServerState.class)
	void aRequiredServerIsUpWhileUpOrIdleOutOfServiceWhileItWaitsForAnAuthorizationAndDownOtherwise(
			McpServerState state) {
		Status expected = switch (state) {
			case UP, IDLE -> Status.UP;
			case NEEDS_AUTHORIZATION -> Status.OUT_OF_SERVICE;
			default -> Status.DOWN;
		};
		assertThat(McpServerHealthIndicator.status(state, true, false)).isEqualTo(expected);
	}

	@ParameterizedTest
	@EnumSource(McpServerState.class)
	void aRequiredServerThatRunsOnlyWhileUsedIsUpWhileACallStartsIt(McpServerState state) {
		Status expected = switch (state) {
			case UP, IDLE, STARTING -> Status.UP;
			case NEEDS_AUTHORIZATION -> Status.OUT_OF_SERVICE;
			default -> Status.DOWN;
		};
		assertThat(McpServerHealthIndicator.status(state, true, true)).isEqualTo(expected);
	}

	@ParameterizedTest
	@EnumSource(McpServerState.class)
	void anOptionalServerIsUpInEveryState(McpServerState state) {
		assertThat(McpServerHealthIndicator.status(state, false, false)).isEqualTo(Status.UP);
	}

	@Test
	void everyServerIsAMemberInTheOrderOfTheServers() {
		McpServersHealthContributor health = new McpServersHealthContributor(
				supervisors(server("web", Outcome.CONNECT, false), server("files", Outcome.CONNECT, true)),
				this.scheduler.clock());
		assertThat(health.stream().map(Entry::name)).containsExactly("web", "files");
		assertThat(health.getContributor("files")).isInstanceOf(HealthIndicator.class);
		assertThat(health.getContributor("nope")).isNull();
	}

	@Test
	void aMemberShowsTheServersDetailsWithItsLastFiveStderrLines() {
		FakeConnector connector = connector(Outcome.MISCONFIGURED);
		connector.stderr = List.of("one", "two", "three", "four", "five", "six", "seven");
		SupervisedServer files = new SupervisedServer(supervisor("files", connector), true, false,
				Duration.ofSeconds(1), Duration.ofSeconds(1));
		files.supervisor().start();
		this.scheduler.runReady();
		assertThat(files.supervisor().state()).isEqualTo(McpServerState.FAILED);
		Health health = health(new McpServersHealthContributor(supervisors(files), this.scheduler.clock()), "files");
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		Map<String, Object> details = health.getDetails();
		assertThat(details).isEqualTo(McpServerDetails
			.of(files.supervisor().status(), true, McpServerDetails.HEALTH_STDERR_LINES, this.scheduler.clock())
			.asMap());
		assertThat(details.get("stderr")).isEqualTo(List.of("three", "four", "five", "six", "seven"));
		assertThat(details).containsEntry("state", McpServerState.FAILED).containsEntry("required", true);
	}

	@Test
	void aMemberReadsTheServersStateAtEveryRequest() {
		FakeConnector connector = connector(Outcome.CONNECT);
		SupervisedServer files = new SupervisedServer(supervisor("files", connector), true, false,
				Duration.ofSeconds(1), Duration.ofSeconds(1));
		HealthIndicator member = (HealthIndicator) new McpServersHealthContributor(supervisors(files),
				this.scheduler.clock())
			.getContributor("files");
		assertThat(member).isNotNull();
		assertThat(member.health().getStatus()).as("not started").isEqualTo(Status.DOWN);
		files.supervisor().start();
		this.scheduler.runReady();
		assertThat(member.health().getStatus()).isEqualTo(Status.UP);
		assertThat(member.health().getDetails()).containsEntry("state", McpServerState.UP);
	}

	private static Health health(McpServersHealthContributor contributor, String server) {
		HealthContributor member = contributor.getContributor(server);
		assertThat(member).isInstanceOf(HealthIndicator.class);
		return ((HealthIndicator) member).health();
	}

	private SupervisedServer server(String name, Outcome outcome, boolean required) {
		return new SupervisedServer(supervisor(name, connector(outcome)), required, false, Duration.ofSeconds(1),
				Duration.ofSeconds(1));
	}

	private static FakeConnector connector(Outcome outcome) {
		return new FakeConnector().always(outcome);
	}

	private McpServerSupervisor supervisor(String name, FakeConnector connector) {
		return McpServerSupervisor.builder(name, connector, this.scheduler)
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
	}

	private static McpSupervisors supervisors(SupervisedServer... servers) {
		return new McpSupervisors(List.of(servers));
	}

}
