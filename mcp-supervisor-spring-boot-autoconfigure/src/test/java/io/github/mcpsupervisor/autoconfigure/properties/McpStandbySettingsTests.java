package io.github.mcpsupervisor.autoconfigure.properties;

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
 * The {@code standby.enabled} setting: off by default, inherited from
 * {@code mcp.defaults} by the stdio servers only, its origin tracked, and refused on a
 * streamable-http server.
 */
class McpStandbySettingsTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withUserConfiguration(BoundProperties.class)
		.withPropertyValues("mcp.servers.files.command=files-server", "mcp.servers.search.command=search-server",
				"mcp.servers.remote.transport=streamable-http", "mcp.servers.remote.url=http://127.0.0.1:1/mcp");

	@Test
	void runWithoutStandbySettingsShouldGiveNoServerAStandby() {
		this.contextRunner.run((context) -> assertThat(standbys(context)).containsExactly(false, false, false));
	}

	@Test
	void runWithAStandbyInTheDefaultsShouldGiveItToTheStdioServersOnly() {
		this.contextRunner.withPropertyValues("mcp.defaults.standby.enabled=true").run((context) -> {
			// files, remote, search: a remote server's process is not the application's
			assertThat(standbys(context)).containsExactly(true, false, true);
			assertThat(new SettingOrigins(context.getEnvironment()).of("files")).containsEntry("standby.enabled",
					"defaults");
		});
	}

	@Test
	void runWithAServerThatSetsItsOwnStandbyShouldKeepItsOwn() {
		this.contextRunner
			.withPropertyValues("mcp.defaults.standby.enabled=true", "mcp.servers.search.standby.enabled=false")
			.run((context) -> {
				assertThat(standbys(context)).containsExactly(true, false, false);
				SettingOrigins origins = new SettingOrigins(context.getEnvironment());
				assertThat(origins.of("search")).containsEntry("standby.enabled", "server");
				assertThat(origins.of("files")).containsEntry("standby.enabled", "defaults");
			});
		this.contextRunner.withPropertyValues("mcp.servers.files.standby.enabled=true")
			.run((context) -> assertThat(standbys(context)).containsExactly(true, false, false));
	}

	@Test
	void runWithAStandbyOnAStreamableHttpServerShouldFailNamingIt() {
		this.contextRunner.withPropertyValues("mcp.servers.remote.standby.enabled=true")
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("servers[remote].standby.enabled")
				.contains("is a setting of stdio servers, and this server's transport is streamable-http"));
	}

	@Test
	void describingAServerShouldSayItKeepsAStandby() {
		this.contextRunner.withPropertyValues("mcp.servers.files.standby.enabled=true")
			.run((context) -> assertThat(settings(context)).first()
				.satisfies((files) -> assertThat(files.toString()).contains(", standby=true"))
				.isNotNull());
	}

	private static List<McpServerSettings> settings(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		return McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class));
	}

	private static List<Boolean> standbys(AssertableApplicationContext context) {
		return settings(context).stream().map(McpServerSettings::standby).toList();
	}

}
