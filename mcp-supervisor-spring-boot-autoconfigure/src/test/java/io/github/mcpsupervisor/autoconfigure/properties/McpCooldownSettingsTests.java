package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;

import io.github.mcpsupervisor.autoconfigure.StartupFailures;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.autoconfigure.properties.internal.SettingOrigins;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy.Cooldown;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code reconnect.cooldown.*} settings: off by default, inherited key by key from
 * {@code mcp.defaults}, their origins tracked, and an initial cooldown over its bound
 * refused.
 */
class McpCooldownSettingsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(BoundProperties.class)
		.withPropertyValues("mcp.servers.demo.command=demo-server", "mcp.servers.other.command=other-server");

	@Test
	void runWithoutCooldownSettingsShouldGiveAServerNoCooldown() {
		this.contextRunner.run((context) -> assertThat(policy(context, "demo").cooldown())
			.isEqualTo(new Cooldown(false, Duration.ofMinutes(5), Duration.ofMinutes(30))));
	}

	@Test
	void runWithACooldownInTheDefaultsShouldGiveItToEveryServerKeyByKey() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.reconnect.cooldown.enabled=true",
					"mcp.defaults.reconnect.cooldown.initial=1m", "mcp.servers.demo.reconnect.cooldown.max=4m")
			.run((context) -> {
				assertThat(policy(context, "demo").cooldown())
					.isEqualTo(Cooldown.of(Duration.ofMinutes(1), Duration.ofMinutes(4)));
				assertThat(policy(context, "other").cooldown())
					.isEqualTo(Cooldown.of(Duration.ofMinutes(1), Duration.ofMinutes(30)));
				assertThat(new SettingOrigins(context.getEnvironment()).of("demo"))
					.containsEntry("reconnect.cooldown.enabled", "defaults")
					.containsEntry("reconnect.cooldown.initial", "defaults")
					.containsEntry("reconnect.cooldown.max", "server");
			});
	}

	@Test
	void runWithAServerThatTurnsTheDefaultCooldownOffShouldGiveItNone() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.reconnect.cooldown.enabled=true",
					"mcp.servers.demo.reconnect.cooldown.enabled=false")
			.run((context) -> {
				assertThat(policy(context, "demo").cooldown().enabled()).isFalse();
				assertThat(policy(context, "other").cooldown().enabled()).isTrue();
			});
	}

	@Test
	void runWithAnInitialCooldownOverItsInheritedBoundShouldFailNamingTheServer() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.reconnect.cooldown.max=10m",
					"mcp.servers.demo.reconnect.cooldown.initial=20m")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].reconnect.cooldown.initial")
				.contains("must not exceed cooldown.max (600000 ms)"));
	}

	@Test
	void runWithAnInitialCooldownOverTheBoundOfTheDefaultsShouldFailNamingTheDefaults() {
		this.contextRunner.withPropertyValues("mcp.defaults.reconnect.cooldown.initial=1h")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("defaults.reconnect.cooldown.initial")
				.contains("must not exceed cooldown.max (1800000 ms)"));
	}

	@Test
	void runWithANonPositiveCooldownShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers.demo.reconnect.cooldown.initial=0s")
			.run((context) -> assertThat(StartupFailures.messages(context))
				.contains("servers[demo].reconnect.cooldown.initial")
				.contains("must be positive"));
	}

	private static ReconnectPolicy policy(AssertableApplicationContext context, String server) {
		assertThat(context).hasNotFailed();
		return McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class))
			.stream()
			.filter((settings) -> settings.name().equals(server))
			.findFirst()
			.orElseThrow()
			.reconnect();
	}

}
