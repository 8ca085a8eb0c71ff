package io.github.mcpsupervisor.autoconfigure.properties;

import java.time.Duration;
import java.util.List;

import io.github.mcpsupervisor.autoconfigure.StartupFailures;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettings;
import io.github.mcpsupervisor.autoconfigure.properties.internal.McpServerSettingsResolver;
import io.github.mcpsupervisor.autoconfigure.properties.internal.SettingOrigins;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code idle.*} settings: off by default, inherited from {@code mcp.defaults} one by
 * one, their origins tracked, a changed configuration another fingerprint, and refused
 * for a server whose calls do not wait for its start.
 */
class McpIdleSettingsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(BoundProperties.class)
		.withPropertyValues("mcp.servers.files.command=files-server", "mcp.servers.search.command=search-server");

	@Test
	void runWithoutIdleSettingsShouldRunEveryServerFromStartToStop() {
		this.contextRunner.run((context) -> assertThat(settings(context)).allSatisfy((server) -> {
			assertThat(server.startOnFirstUse()).isFalse();
			assertThat(server.idleTimeout()).isNull();
		}));
	}

	@Test
	void runWithIdleSettingsInTheDefaultsShouldGiveThemToEveryServerButThoseThatSetTheirOwn() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.idle.start-on-first-use=true", "mcp.defaults.idle.timeout=10m",
					"mcp.servers.search.idle.timeout=0")
			.run((context) -> {
				List<McpServerSettings> servers = settings(context);
				assertThat(servers).extracting(McpServerSettings::startOnFirstUse).containsExactly(true, true);
				assertThat(servers).extracting(McpServerSettings::idleTimeout)
					.containsExactly(Duration.ofMinutes(10), null);
				SettingOrigins origins = new SettingOrigins(context.getEnvironment());
				assertThat(origins.of("search")).containsEntry("idle.timeout", "server")
					.containsEntry("idle.start-on-first-use", "defaults");
			});
	}

	@Test
	void runWithAServerThatRunsOnlyWhileUsedAndCallsThatDoNotWaitShouldFailNamingIt() {
		this.contextRunner
			.withPropertyValues("mcp.servers.files.idle.timeout=5m", "mcp.servers.files.call.wait-for-recovery=0")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[files].idle")
				.contains("needs call.wait-for-recovery above 0: the first call after an idle time waits for the "
						+ "server's start"));
		this.contextRunner
			.withPropertyValues("mcp.defaults.call.wait-for-recovery=0",
					"mcp.servers.files.idle.start-on-first-use=true")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[files].idle"));
	}

	@Test
	void runWithANegativeIdleTimeShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("mcp.servers.files.idle.timeout=-1s")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[files].idle.timeout")
				.contains("must not be negative"));
	}

	@Test
	void aServerConfiguredOtherwiseHasAnotherFingerprint() {
		this.contextRunner.run((context) -> {
			List<McpServerSettings> servers = settings(context);
			assertThat(servers.get(0).fingerprint()).hasSize(64).isNotEqualTo(servers.get(1).fingerprint());
		});
		String[] fingerprints = new String[3];
		this.contextRunner.withPropertyValues("mcp.servers.files.env.TOKEN=a")
			.run((context) -> fingerprints[0] = settings(context).get(0).fingerprint());
		this.contextRunner.withPropertyValues("mcp.servers.files.env.TOKEN=b")
			.run((context) -> fingerprints[1] = settings(context).get(0).fingerprint());
		this.contextRunner.withPropertyValues("mcp.servers.files.env.TOKEN=a", "mcp.servers.files.idle.timeout=1m")
			.run((context) -> fingerprints[2] = settings(context).get(0).fingerprint());
		assertThat(fingerprints[0]).as("another secret").isNotEqualTo(fingerprints[1]);
		assertThat(fingerprints[2]).as("how long it idles is not how it is reached").isEqualTo(fingerprints[0]);
	}

	private static List<McpServerSettings> settings(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class));
	}

}
