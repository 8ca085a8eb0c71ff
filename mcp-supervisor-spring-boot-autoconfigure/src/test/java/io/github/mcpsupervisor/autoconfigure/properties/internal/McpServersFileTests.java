package io.github.mcpsupervisor.autoconfigure.properties.internal;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.github.mcpsupervisor.autoconfigure.McpSupervisorAutoConfiguration;
import io.github.mcpsupervisor.autoconfigure.StartupFailures;
import io.github.mcpsupervisor.autoconfigure.properties.McpSupervisorProperties;
import io.github.mcpsupervisor.autoconfigure.properties.McpTransportType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Servers of {@code mcp.servers-configuration} files in the {@code mcpServers} JSON
 * format, merged with {@code mcp.servers.<name>.*} properties.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpServersFileTests {

	private static final String MISSING = "/nonexistent/mcp-server";

	private static final String CLAUDE = "classpath:mcp/claude.json";

	private static final String VSCODE = "classpath:mcp/vscode.json";

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(McpSupervisorAutoConfiguration.class))
		.withInitializer((context) -> new McpServersFileEnvironmentPostProcessor()
			.postProcessEnvironment(context.getEnvironment(), new SpringApplication()));

	@TempDir
	Path directory;

	@Test
	void runWithAFileShouldBindItsStdioAndHttpServers() {
		this.contextRunner.withPropertyValues("mcp.servers-configuration=" + CLAUDE, "FILES_TOKEN=s3cret")
			.run((context) -> {
				Map<String, McpServerSettings> servers = servers(context);
				assertThat(servers).containsOnlyKeys("files", "search");
				McpServerSettings files = servers.get("files");
				assertThat(files.transport()).isEqualTo(McpTransportType.STDIO);
				assertThat(files.command()).isEqualTo(MISSING);
				assertThat(files.args()).containsExactly("-y", "@modelcontextprotocol/server-filesystem", "/data");
				assertThat(files.env()).containsExactlyInAnyOrderEntriesOf(Map.of("TOKEN", "s3cret", "LEVEL", "debug"));
				McpServerSettings search = servers.get("search");
				assertThat(search.transport()).isEqualTo(McpTransportType.STREAMABLE_HTTP);
				assertThat(search.url()).isEqualTo(URI.create("http://127.0.0.1:1/mcp"));
				assertThat(search.headers()).containsExactlyEntriesOf(Map.of("Authorization", "Bearer anonymous"));
				assertThat(search.requestTimeout()).isEqualTo(Duration.ofSeconds(20));
			});
	}

	@Test
	void runWithPropertiesForAServerOfAFileShouldLetThemWinPropertyByProperty() {
		this.contextRunner
			.withPropertyValues("mcp.servers-configuration=" + CLAUDE, "FILES_TOKEN=s3cret", "SEARCH_TOKEN=abc",
					"mcp.servers.files.request-timeout=5s", "mcp.servers.files.args[0]=/only",
					"mcp.servers.files.env.LEVEL=info", "mcp.servers.files.env.EXTRA=1",
					"mcp.defaults.request-timeout=7s", "mcp.servers.search.enabled=false")
			.run((context) -> {
				Map<String, McpServerSettings> servers = servers(context);
				assertThat(servers).containsOnlyKeys("files");
				McpServerSettings files = servers.get("files");
				assertThat(files.command()).isEqualTo(MISSING);
				assertThat(files.requestTimeout()).isEqualTo(Duration.ofSeconds(5));
				// a list is replaced as a whole, a map merged key by key
				assertThat(files.args()).containsExactly("/only");
				assertThat(files.env())
					.containsExactlyInAnyOrderEntriesOf(Map.of("TOKEN", "s3cret", "LEVEL", "info", "EXTRA", "1"));
			});
	}

	@Test
	void runWithAFileShouldApplyTheDefaultsToItsServers() {
		this.contextRunner
			.withPropertyValues("mcp.servers-configuration=" + CLAUDE, "FILES_TOKEN=s3cret",
					"mcp.defaults.request-timeout=7s")
			.run((context) -> assertThat(servers(context).values()).extracting(McpServerSettings::requestTimeout)
				.containsOnly(Duration.ofSeconds(7)));
	}

	@Test
	void runWithTwoFilesShouldBindTheServersOfBoth() {
		this.contextRunner
			.withPropertyValues("mcp.servers-configuration=" + CLAUDE + ", " + VSCODE, "FILES_TOKEN=s3cret")
			.run((context) -> {
				// 'remote' is "disabled": true
				Map<String, McpServerSettings> servers = servers(context);
				assertThat(servers).containsOnlyKeys("files", "search", "memory");
				assertThat(servers.get("memory").args()).containsExactly("memory");
				assertThat(context.getBean(McpSupervisorProperties.class).servers().get("remote").url())
					.isEqualTo(URI.create("http://localhost:1/mcp"));
			});
	}

	@Test
	void runWithAFileFromTheFileSystemShouldBindItsServers() throws IOException {
		Path file = write(
				"{\"mcpServers\": {\"one\": {\"command\": \"" + MISSING + "\", \"args\": [\"--port\", 8080]}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file)
			.run((context) -> assertThat(servers(context).get("one").args()).containsExactly("--port", "8080"));
	}

	@Test
	void runWithAFileServerNamedWithCapitalsUnderscoresAndALeadingDashShouldKeepTheNames() throws IOException {
		Path file = write("{\"mcpServers\": {\"My_Server\": {\"command\": \"" + MISSING
				+ "\"}, \"-x\": {\"type\": \"http\", \"url\": \"http://127.0.0.1:1/mcp\"}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file, "mcp.servers[-x].required=true")
			.run((context) -> {
				Map<String, McpServerSettings> servers = servers(context);
				assertThat(servers).containsOnlyKeys("My_Server", "-x");
				assertThat(servers.get("-x").required()).isTrue();
			});
	}

	@Test
	void runWithAnUnresolvablePlaceholderShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers-configuration=" + CLAUDE)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(McpServersFileException.class)
				.hasMessageStartingWith("MCP server file '" + CLAUDE + "', entry 'files': env[TOKEN]: ")
				.hasMessageContaining("FILES_TOKEN"));
	}

	@Test
	void runWithAnUnresolvablePlaceholderShouldNameItButNotShowTheRestOfTheValue() throws IOException {
		Path file = write("{\"mcpServers\": {\"remote\": {\"url\": \"http://127.0.0.1:1/mcp\", "
				+ "\"headers\": {\"Authorization\": \"Bearer SECRET-PREFIX-8${UNSET_TOKEN}\"}}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(McpServersFileException.class)
				.hasMessageContaining("entry 'remote': headers[Authorization]: ")
				.hasMessageContaining("UNSET_TOKEN")
				.hasMessageNotContaining("SECRET-PREFIX-8"));
	}

	@Test
	void runWithAnUnresolvablePlaceholderSetByAPropertyShouldNotFail() {
		this.contextRunner
			.withPropertyValues("mcp.servers-configuration=" + CLAUDE, "mcp.servers.files.env.TOKEN=from-properties")
			.run((context) -> assertThat(servers(context).get("files").env()).containsEntry("TOKEN",
					"from-properties"));
	}

	@Test
	void runWithAnUnresolvablePlaceholderInAListSetByAPropertyShouldNotFail() throws IOException {
		Path file = write(
				"{\"mcpServers\": {\"one\": {\"command\": \"" + MISSING + "\", \"args\": [\"a\", \"${UNSET}\"]}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file, "mcp.servers.one.args[0]=b")
			.run((context) -> assertThat(servers(context).get("one").args()).containsExactly("b"));
	}

	@Test
	void runWithAnEscapedPlaceholderShouldKeepItLiterally() throws IOException {
		Path file = write(
				"{\"mcpServers\": {\"one\": {\"command\": \"" + MISSING + "\", \"args\": [\"\\\\${HOME}\"]}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file)
			.run((context) -> assertThat(servers(context).get("one").args()).containsExactly("${HOME}"));
	}

	@Test
	void runApplicationWithDefaultPropertiesShouldLetTheFileWin() {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers-configuration=" + CLAUDE, "FILES_TOKEN=s3cret",
					"mcp.servers.files.command=/other");
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(context.getBean(McpSupervisorProperties.class).servers().get("files").command())
				.isEqualTo(MISSING);
		}
	}

	@Test
	void runOfAnApplicationStartedBeforeShouldStillFailOnAnInvalidFile() throws IOException {
		Path file = write("{\"mcpServers\": {\"one\": {\"command\": \"" + MISSING + "\"}}}");
		SpringApplication application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers-configuration=file:" + file)
			.build();
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(context.getBean(McpSupervisorProperties.class).servers()).containsKey("one");
		}
		Files.writeString(file, "{\"mcpServers\": {\"one\": {\"command\": x}}}");
		assertThatExceptionOfType(McpServersFileException.class).isThrownBy(application::run)
			.withMessageContaining("invalid JSON");
	}

	@Test
	void runWithInvalidJsonAroundASecretShouldNotQuoteIt() throws IOException {
		Path file = write("{\"mcpServers\": {\"one\": {\"command\": \"" + MISSING
				+ "\", \"env\": {\"TOKEN\": sk_live_SECRET_9}}}}");
		this.contextRunner.withPropertyValues("mcp.servers-configuration=file:" + file)
			.run((context) -> assertThat(StartupFailures.messages(context)).contains("invalid JSON at line 1")
				.doesNotContain("SECRET_9"));
	}

	@Test
	void runWithAFileThatDoesNotExistShouldFail() {
		assertFailure("classpath:mcp/missing.json", null,
				"the resource class path resource [mcp/missing.json] does not exist");
	}

	@Test
	void runWithInvalidJsonShouldFailNamingTheLineAndColumn() throws IOException {
		assertFailure(location(write("{\"mcpServers\": {\n  \"files\": {\"command\": x}\n}}")), null,
				"invalid JSON at line 2, column 24: Unrecognized token (not shown)");
	}

	@Test
	void runWithoutAServersObjectShouldFail() throws IOException {
		assertFailure(location(write("{\"files\": {\"command\": \"x\"}}")), null,
				"the root has no 'mcpServers' (or VS Code's 'servers') object");
	}

	@Test
	void runWithAnEntryWithoutCommandOrUrlShouldFail() throws IOException {
		assertFailure(location(write("{\"mcpServers\": {\"files\": {\"args\": [\"x\"]}}}")), "files",
				"it has neither a 'command'");
	}

	@Test
	void runWithAnUnknownFieldShouldFail() throws IOException {
		assertFailure(location(write("{\"mcpServers\": {\"files\": {\"command\": \"x\", \"envFile\": \".env\"}}}")),
				"files",
				"unknown field 'envFile'; the fields are command, args, env, cwd, url, headers, type, disabled");
	}

	@Test
	void runWithAnSseServerShouldFail() throws IOException {
		assertFailure(
				location(write("{\"servers\": {\"old\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\"}}}")),
				"old", "the legacy SSE transport (\"type\": \"sse\") is not supported");
	}

	@Test
	void runWithAnInvalidServerNameShouldFail() throws IOException {
		assertFailure(location(write("{\"mcpServers\": {\"my files\": {\"command\": \"x\"}}}")), "my files",
				"the name must be 1 to 32 letters, digits, '_' or '-'");
	}

	@Test
	void runWithAServerDefinedTwiceInAFileShouldFail() throws IOException {
		assertFailure(location(write("{\"mcpServers\": {\"a\": {\"command\": \"x\"}, \"a\": {\"command\": \"y\"}}}")),
				null, "invalid JSON at line 1, column ");
	}

	@Test
	void runWithAServerDefinedInTwoFilesShouldFail() {
		this.contextRunner.withPropertyValues("mcp.servers-configuration=" + VSCODE + "," + VSCODE)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasMessage("MCP server file '" + VSCODE + "', entry 'memory': the server is also defined in '" + VSCODE
						+ "'; define each server in one file"));
	}

	@Test
	void runWithAnInvalidUrlShouldFailAtBindingLikeAProperty() throws IOException {
		this.contextRunner
			.withPropertyValues(
					"mcp.servers-configuration=" + location(write("{\"mcpServers\": {\"s\": {\"url\": \"ftp://x\"}}}")))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.hasMessageContaining("servers[s].url")
				.hasMessageContaining("must be an absolute http or https URL"));
	}

	@Test
	void analyzeShouldNameTheFileTheEntryAndWhatToDo() {
		FailureAnalysis analysis = new McpServersFileFailureAnalyzer()
			.analyze(new McpServersFileException("classpath:mcp.json", "files", "it has neither a 'command'"));
		assertThat(analysis.getDescription())
			.isEqualTo("MCP server file 'classpath:mcp.json', entry 'files': it has neither a 'command'");
		assertThat(analysis.getAction()).contains("Fix the entry 'files' in 'classpath:mcp.json'")
			.contains("mcp.servers.files.*");
	}

	@Test
	void runApplicationWithAFileShouldBindItsServers() {
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers-configuration=" + CLAUDE, "FILES_TOKEN=s3cret");
		try (ConfigurableApplicationContext context = application.run()) {
			assertThat(McpServerSettingsResolver.resolve(context.getBean(McpSupervisorProperties.class)))
				.extracting(McpServerSettings::name)
				.containsExactly("files", "search");
		}
	}

	@Test
	void runApplicationWithAnSseServerShouldReportTheAnalysis(CapturedOutput output) throws IOException {
		String location = location(
				write("{\"mcpServers\": {\"old\": {\"type\": \"sse\", \"url\": \"http://127.0.0.1:1/sse\"}}}"));
		SpringApplicationBuilder application = new SpringApplicationBuilder(Config.class).web(WebApplicationType.NONE)
			.properties("mcp.servers-configuration=" + location);
		assertThatExceptionOfType(McpServersFileException.class).isThrownBy(application::run);
		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("MCP server file '" + location + "', entry 'old': the legacy SSE transport")
			.contains("Fix the entry 'old' in '" + location + "'");
	}

	private void assertFailure(String location, String entry, String problem) {
		this.contextRunner.withPropertyValues("mcp.servers-configuration=" + location)
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOfSatisfying(McpServersFileException.class, (ex) -> {
					assertThat(ex.getLocation()).isEqualTo(location);
					assertThat(ex.getEntry()).isEqualTo(entry);
					assertThat(ex.getProblem()).startsWith(problem);
					assertThat(ex.getMessage()).startsWith("MCP server file '" + location + "'"
							+ ((entry != null) ? ", entry '" + entry + "'" : "") + ": " + problem);
				}));
	}

	private static Map<String, McpServerSettings> servers(AssertableApplicationContext context) {
		assertThat(context).hasNotFailed();
		List<McpServerSettings> servers = McpServerSettingsResolver
			.resolve(context.getBean(McpSupervisorProperties.class));
		return servers.stream().collect(Collectors.toMap(McpServerSettings::name, (server) -> server));
	}

	private Path write(String json) throws IOException {
		return Files.writeString(Files.createTempFile(this.directory, "mcp", ".json"), json);
	}

	private static String location(Path file) {
		return "file:" + file;
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration(McpSupervisorAutoConfiguration.class)
	static class Config {

	}

}
