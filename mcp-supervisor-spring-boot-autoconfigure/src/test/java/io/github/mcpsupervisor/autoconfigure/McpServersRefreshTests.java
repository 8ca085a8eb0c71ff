package io.github.mcpsupervisor.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.autoconfigure.RefreshAutoConfiguration;
import org.springframework.cloud.context.environment.EnvironmentChangeEvent;
import org.springframework.cloud.context.refresh.ContextRefresher;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link McpServersRefreshListener}: a refresh of the environment by Spring
 * Cloud that changes {@code mcp.*} is applied to the servers as a change of their files.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpServersRefreshTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withPropertyValues("mcp.defaults.reconnect.enabled=false", "mcp.defaults.initialization-timeout=2s",
				"mcp.servers.kept.command=" + MISSING, "mcp.servers.removed.command=" + MISSING,
				"mcp.servers.changed.command=" + MISSING);

	@Test
	void runWhenTheEnvironmentChangesMcpShouldApplyTheDifference() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor kept = supervisors.supervisor("kept");
			McpServerSupervisor changed = supervisors.supervisor("changed");
			Map<String, Object> refreshed = new LinkedHashMap<>();
			refreshed.put("mcp.servers.removed.enabled", "false");
			refreshed.put("mcp.servers.changed.request-timeout", "9s");
			refreshed.put("mcp.servers.added.command", MISSING);
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", refreshed));
			context.publishEvent(new EnvironmentChangeEvent(context, refreshed.keySet()));
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name)
				.containsExactlyInAnyOrder("kept", "changed", "added");
			assertThat(supervisors.supervisor("kept")).isSameAs(kept);
			assertThat(supervisors.supervisor("changed")).isNotSameAs(changed);
			assertThat(context.getBean(McpServerRegistry.class).settings("changed").orElseThrow().requestTimeout())
				.hasSeconds(9);
		});
	}

	@Test
	void runWhenTheChangedKeysAreNotMcpShouldLeaveTheServers() {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			context.getEnvironment()
				.getPropertySources()
				.addFirst(new MapPropertySource("refreshed", Map.of("mcp.servers.added.command", MISSING)));
			context
				.publishEvent(new EnvironmentChangeEvent(context, Set.of("mcpx.servers", "spring.application.name")));
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name).doesNotContain("added");
			context.publishEvent(new EnvironmentChangeEvent(context, Set.of("MCP_SERVERS_ADDED_COMMAND")));
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name).contains("added");
		});
	}

	@Test
	void runWhenTheChangeIsInvalidShouldRefuseItWithOneErrorAndChangeNothing(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor kept = supervisors.supervisor("kept");
			Map<String, Object> refreshed = Map.of("mcp.servers.bad.args[0]", "x", "mcp.servers.added.command",
					MISSING);
			context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("refreshed", refreshed));
			context.publishEvent(new EnvironmentChangeEvent(context, refreshed.keySet()));
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name)
				.containsExactlyInAnyOrder("kept", "removed", "changed");
			assertThat(supervisors.supervisor("kept")).isSameAs(kept);
			String error = "The MCP servers' configuration changed by the refresh of the environment";
			assertThat(output.getOut().split(Pattern.quote(error), -1)).hasSize(2);
			assertThat(output).contains("is refused")
				.contains("mcp.servers.bad")
				.contains("is required when transport is stdio");
		});
	}

	@Test
	void runWhenAChangeGivesAServerAValueThatWouldFailEveryAttemptShouldRefuseItAndKeepTheServer(
			CapturedOutput output) {
		this.contextRunner.run((context) -> {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor kept = supervisors.supervisor("kept");
			refresh(context, "timeout", Map.of("mcp.servers.kept.request-timeout", "365000d"));
			context.getEnvironment().getPropertySources().remove("timeout");
			refresh(context, "variable", Map.of("mcp.servers.kept.env[A=B]", "x"));
			context.getEnvironment().getPropertySources().remove("variable");
			refresh(context, "tools", Map.of("mcp.servers.kept.call.timeouts.run_code", "5m"));
			assertThat(supervisors.supervisor("kept")).isSameAs(kept);
			assertThat(context.getBean(McpServerRegistry.class).settings("kept").orElseThrow().requestTimeout())
				.hasSeconds(20);
			assertThat(output).contains("mcp.servers.kept.request-timeout")
				.contains("must not exceed 365 days")
				.contains("mcp.servers.kept.env")
				.contains("is not the name of an environment variable")
				.contains("mcp.servers.kept.call.timeouts[run_code]");
		});
	}

	@Test
	void runWhenARefusedChangeHoldsSecretsShouldLogItMaskedAsAStartDoes(CapturedOutput output) {
		this.contextRunner.run((context) -> {
			Map<String, Object> remote = new LinkedHashMap<>();
			remote.put("mcp.servers.remote.transport", "streamable-http");
			remote.put("mcp.servers.remote.url",
					"http://admin:PASSWORD-1@127.0.0.1:1/mcp?api_key=QUERY-SECRET-2&region=eu");
			remote.put("mcp.servers.remote.headers.X-Api-Key", "HEADER-SECRET-3\nERROR forged line");
			refresh(context, "remote", remote);
			Map<String, Object> other = new LinkedHashMap<>();
			other.put("mcp.servers.other.transport", "streamable-http");
			other.put("mcp.servers.other.url", "http://127.0.0.1:1/mcp");
			other.put("mcp.servers.other.args[0]", "--token=ARG-SECRET-4");
			other.put("mcp.servers.other.env.TOKEN", "ENV-SECRET-5");
			context.getEnvironment().getPropertySources().remove("remote");
			refresh(context, "other", other);
			context.getEnvironment().getPropertySources().remove("other");
			refresh(context, "unknown", Map.of("mcp.servers.kept.unknown", "http://user:PASSWORD-6@127.0.0.1:1/mcp"));
			context.getEnvironment().getPropertySources().remove("unknown");
			refresh(context, "converted",
					Map.of("mcp.servers.kept.request-timeout", "http://user:PASSWORD-7@127.0.0.1:1/mcp"));
			assertThat(output).contains("is refused")
				.contains("mcp.servers.remote.url")
				.contains("must not carry user information")
				.contains("mcp.servers.remote.headers")
				.contains("contains a line break or another control character")
				.contains("mcp.servers.other.env")
				.contains("mcp.servers.other.args")
				.contains("is a setting of stdio servers")
				.contains("mcp.servers.kept.unknown")
				.contains("is not a known property")
				.contains("mcp.servers.kept.request-timeout")
				.contains("must be a duration")
				.doesNotContain("PASSWORD-1")
				.doesNotContain("QUERY-SECRET-2")
				.doesNotContain("HEADER-SECRET-3")
				.doesNotContain("ARG-SECRET-4")
				.doesNotContain("ENV-SECRET-5")
				.doesNotContain("PASSWORD-6")
				.doesNotContain("PASSWORD-7");
			assertThat(output.getOut().lines()).noneMatch((line) -> line.startsWith("ERROR forged line"));
			assertThat(output.getOut().split("is refused", -1)).hasSize(5);
		});
	}

	private static void refresh(ConfigurableApplicationContext context, String name, Map<String, Object> properties) {
		context.getEnvironment().getPropertySources().addFirst(new MapPropertySource(name, properties));
		context.publishEvent(new EnvironmentChangeEvent(context, properties.keySet()));
	}

	@Test
	void runWhenReloadIsDisabledShouldNotListen() {
		this.contextRunner.withPropertyValues("mcp.reload.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(McpServersRefreshListener.class));
	}

	@Test
	void runWithoutSpringCloudShouldNotListen() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(EnvironmentChangeEvent.class))
			.run((context) -> assertThat(context).doesNotHaveBean(McpServersRefreshListener.class));
	}

	@Test
	void refreshShouldApplyTheChangedPropertiesAndKeepTheServersOfTheFiles(@TempDir Path directory) throws IOException {
		Path properties = directory.resolve("mcp.properties");
		Path file = directory.resolve("mcp.json");
		Files.writeString(file, "{\"mcpServers\": {\"from-file\": {\"command\": \"" + MISSING + "\"}}}");
		Files.writeString(properties, "mcp.servers.removed.command=" + MISSING + "\n");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RefreshApplication.class)
			.web(WebApplicationType.NONE)
			.run("--spring.config.additional-location=file:" + properties, "--mcp.servers-configuration=file:" + file,
					"--mcp.reload.enabled=true", "--mcp.defaults.reconnect.enabled=false",
					"--mcp.defaults.initialization-timeout=2s")) {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor fromFile = supervisors.supervisor("from-file");
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name)
				.containsExactlyInAnyOrder("from-file", "removed");
			Files.writeString(properties, "mcp.servers.added.command=" + MISSING + "\n");
			Set<String> keys = context.getBean(ContextRefresher.class).refresh();
			assertThat(keys).contains("mcp.servers.added.command", "mcp.servers.removed.command");
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name)
				.containsExactlyInAnyOrder("from-file", "added");
			assertThat(supervisors.supervisor("from-file")).isSameAs(fromFile);
			assertThat(context.getEnvironment().getProperty("mcp.servers.from-file.command")).isEqualTo(MISSING);
		}
	}

	@Test
	void refreshWhenAServersFileIsInvalidShouldRefreshTheRestKeepTheServersAndReportItOnce(@TempDir Path directory,
			CapturedOutput output) throws IOException {
		Path properties = directory.resolve("mcp.properties");
		Path file = directory.resolve("mcp.json");
		Files.writeString(file, "{\"mcpServers\": {\"from-file\": {\"command\": \"" + MISSING + "\"}}}");
		Files.writeString(properties, "app.greeting=one\n");
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(RefreshApplication.class)
			.web(WebApplicationType.NONE)
			.run("--spring.config.additional-location=file:" + properties, "--mcp.servers-configuration=file:" + file,
					"--mcp.defaults.reconnect.enabled=false", "--mcp.defaults.initialization-timeout=2s",
					// the watch would report the file too
					"--mcp.reload.interval=1h")) {
			McpSupervisors supervisors = context.getBean(McpSupervisors.class);
			McpServerSupervisor fromFile = supervisors.supervisor("from-file");
			ContextRefresher refresher = context.getBean(ContextRefresher.class);
			Files.writeString(file, "{\"mcpServers\": {\"from-file\": ");
			Files.writeString(properties, "app.greeting=two\n");
			assertThat(refresher.refresh()).containsExactly("app.greeting");
			assertThat(context.getEnvironment().getProperty("app.greeting")).isEqualTo("two");
			Files.writeString(properties, "app.greeting=three\nmcp.servers.added.command=" + MISSING + "\n");
			assertThat(refresher.refresh()).containsExactlyInAnyOrder("app.greeting", "mcp.servers.added.command");
			assertThat(context.getEnvironment().getProperty("app.greeting")).isEqualTo("three");
			Files.writeString(properties, "app.greeting=four\nmcp.servers.added.command=" + MISSING + "\n");
			assertThat(refresher.refresh()).containsExactly("app.greeting");
			assertThat(supervisors.supervisors()).extracting(McpServerSupervisor::name).containsExactly("from-file");
			assertThat(supervisors.supervisor("from-file")).isSameAs(fromFile);
			assertThat(context.getEnvironment().getProperty("mcp.servers.from-file.command")).isEqualTo(MISSING);
			assertThat(output.getOut().split("is refused", -1)).hasSize(2);
			assertThat(output).contains("file:" + file).contains("invalid JSON");
		}
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ RefreshAutoConfiguration.class, McpSupervisorAutoConfiguration.class })
	static class RefreshApplication {

	}

}
