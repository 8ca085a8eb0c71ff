package io.github.mcpsupervisor.tool;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.testsupport.CapturedOutput;
import io.github.mcpsupervisor.testsupport.OutputCaptureExtension;
import io.modelcontextprotocol.spec.McpSchema.ClientCapabilities;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.ai.mcp.DefaultMcpToolNamePrefixGenerator;
import org.springframework.ai.mcp.McpConnectionInfo;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.tool.ToolCallback;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Tool names per server: prefixed or Spring AI's, and the refusal of a name that is taken
 * or that models do not accept, at the first attempts and at a swap.
 */
@ExtendWith(OutputCaptureExtension.class)
class McpToolNamingTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final Map<String, FakeConnector> connectors = new LinkedHashMap<>();

	@Test
	void springAiNamesAreTheToolsOwnNamesAsSpringAiFormatsThem() {
		McpServerSupervisor files = server("files", "read_file", "get-sum", "list.dir");
		McpSupervisorToolCallbackProvider provider = provider(Map.of("files", McpToolNaming.SPRING_AI), null, files);
		startAll(provider, files);
		// what Spring AI's DefaultMcpToolNamePrefixGenerator names them
		DefaultMcpToolNamePrefixGenerator springAi = new DefaultMcpToolNamePrefixGenerator();
		List<String> expected = this.connectors.get("files").serverTools.stream()
			.map((tool) -> springAi.prefixedToolName(connection("files"), tool))
			.toList();
		assertThat(names(provider.getToolCallbacks())).containsExactly("read_file", "get_sum", "listdir")
			.isEqualTo(expected);
	}

	@Test
	void eachServerIsNamedAsItsSettingSays() {
		McpServerSupervisor files = server("files", "read_file");
		McpServerSupervisor git = server("git", "log");
		McpSupervisorToolCallbackProvider provider = provider(Map.of("files", McpToolNaming.SPRING_AI), null, files,
				git);
		startAll(provider, files, git);
		assertThat(names(provider.getToolCallbacks())).containsExactly("read_file", "git_log");
	}

	@Test
	void aGeneratorNamesOnlyTheToolsOfTheServersThatKeepSpringAisNames() {
		McpServerSupervisor files = server("files", "read_file");
		McpServerSupervisor git = server("git", "log");
		McpToolNamePrefixGenerator generator = (connection, tool) -> connection.clientInfo().title() + "__"
				+ tool.name();
		McpSupervisorToolCallbackProvider provider = provider(Map.of("files", McpToolNaming.SPRING_AI), generator,
				files, git);
		startAll(provider, files, git);
		assertThat(names(provider.getToolCallbacks())).containsExactly("files__read_file", "git_log");
	}

	@Test
	void startRefusesTheSameNameFromTwoServers() {
		McpServerSupervisor files = server("files", "search", "read_file");
		McpServerSupervisor web = server("web", "search");
		McpSupervisorToolCallbackProvider provider = provider(
				Map.of("files", McpToolNaming.SPRING_AI, "web", McpToolNaming.SPRING_AI), null, files, web);
		files.start();
		web.start();
		this.scheduler.runReady();
		assertThatExceptionOfType(McpToolNamesException.class).isThrownBy(provider::start).satisfies((refused) -> {
			assertThat(refused.getRefusals()).containsExactly(
					"tool 'search' of MCP server 'web' is named 'search' like tool 'search' of MCP server 'files'");
			assertThat(refused.getServers()).containsExactly("files", "web");
		});
		assertThat(provider.isRunning()).isFalse();
	}

	@Test
	void startRefusesANameThatModelsDoNotAccept() {
		String tooLong = "t".repeat(65);
		McpServerSupervisor files = server("files", "工具", tooLong, "ok");
		McpSupervisorToolCallbackProvider provider = provider(Map.of("files", McpToolNaming.SPRING_AI), null, files);
		files.start();
		this.scheduler.runReady();
		assertThatExceptionOfType(McpToolNamesException.class).isThrownBy(provider::start)
			.satisfies((refused) -> assertThat(refused.getRefusals()).containsExactly(
					"tool '工具' of MCP server 'files' is named '工具', which is not a tool name models accept "
							+ "(1 to 64 letters, digits, '_' or '-')",
					"tool '" + tooLong + "' of MCP server 'files' is named '" + tooLong
							+ "', which is not a tool name models accept (1 to 64 letters, digits, '_' or '-')"));
	}

	@Test
	void startRefusesTwoToolsOfOneServerThatSpringAiNamesAlike() {
		McpServerSupervisor files = server("files", "get-sum", "get_sum");
		McpSupervisorToolCallbackProvider provider = provider(Map.of("files", McpToolNaming.SPRING_AI), null, files);
		files.start();
		this.scheduler.runReady();
		assertThatExceptionOfType(McpToolNamesException.class).isThrownBy(provider::start).satisfies((refused) -> {
			assertThat(refused.getRefusals()).containsExactly(
					"tool 'get_sum' of MCP server 'files' is named 'get_sum' like another tool of the same server, 'get-sum'");
			assertThat(refused.getServers()).containsExactly("files");
		});
	}

	@Test
	void startWithPrefixedNamesNeverRefuses() {
		McpServerSupervisor files = server("files", "search");
		McpServerSupervisor web = server("web", "search");
		McpSupervisorToolCallbackProvider provider = provider(Map.of(), null, files, web);
		startAll(provider, files, web);
		assertThat(provider.isRunning()).isTrue();
		assertThat(names(provider.getToolCallbacks())).containsExactly("files_search", "web_search");
	}

	@Test
	void aSwapThatBringsATakenNameLeavesThatToolOutAndSwapsTheRest(CapturedOutput output) {
		// web comes first in the servers' order, files has the name first
		McpServerSupervisor web = server("web", "fetch");
		McpServerSupervisor files = server("files", "search", "read_file");
		McpSupervisorToolCallbackProvider provider = provider(
				Map.of("files", McpToolNaming.SPRING_AI, "web", McpToolNaming.SPRING_AI), null, web, files);
		startAll(provider, web, files);
		assertThat(names(provider.getToolCallbacks())).containsExactly("fetch", "search", "read_file");
		this.connectors.get("web").serverTools = List.of(FakeConnector.tool("fetch"), FakeConnector.tool("search"),
				FakeConnector.tool("crawl"));
		this.connectors.get("web").last().toolsChanged.run();
		this.scheduler.runReady();
		assertThat(names(provider.getToolCallbacks())).containsExactly("fetch", "crawl", "search", "read_file");
		assertThat(((SupervisedToolCallback) provider.getToolCallbacks()[2]).getServerName()).isEqualTo("files");
		assertThat(output).contains("WARN")
			.contains("Tool 'search' of MCP server 'web' is named 'search' like tool 'search' of MCP server 'files', "
					+ "so it is not exposed; name the tools of MCP server 'web' or 'files' with tool-names=prefixed, "
					+ "or leave one of the tools out with a McpToolFilter");
	}

	@Test
	void aToolThatLostItsNameGetsItWhenTheHolderNoLongerHasIt() {
		McpServerSupervisor files = server("files", "search");
		McpServerSupervisor web = server("web");
		McpSupervisorToolCallbackProvider provider = provider(
				Map.of("files", McpToolNaming.SPRING_AI, "web", McpToolNaming.SPRING_AI), null, files, web);
		startAll(provider, files, web);
		this.connectors.get("web").serverTools = List.of(FakeConnector.tool("search"));
		this.connectors.get("web").last().toolsChanged.run();
		this.scheduler.runReady();
		assertThat(serversOf(provider.getToolCallbacks())).containsExactly("files");
		this.connectors.get("files").serverTools = List.of(FakeConnector.tool("find"));
		this.connectors.get("files").last().toolsChanged.run();
		this.scheduler.runReady();
		assertThat(names(provider.getToolCallbacks())).containsExactly("find", "search");
		assertThat(serversOf(provider.getToolCallbacks())).containsExactly("files", "web");
	}

	@Test
	void theConstructorWithAGeneratorNamesEveryServerWithIt() {
		McpServerSupervisor files = server("files", "read_file");
		McpServerSupervisor git = server("git", "log");
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors(files, git),
				ToolCallObserver.NONE, (connection, tool) -> true, McpToolNamePrefixGenerator.noPrefix(),
				ToolContextToMcpMetaConverter.defaultConverter());
		startAll(provider, files, git);
		assertThat(names(provider.getToolCallbacks())).containsExactly("read_file", "log");
	}

	private McpServerSupervisor server(String name, String... tools) {
		FakeConnector connector = new FakeConnector();
		connector.serverTools = Arrays.stream(tools).map(FakeConnector::tool).toList();
		this.connectors.put(name, connector);
		return McpServerSupervisor.builder(name, connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(Duration.ofMillis(500))
				.maxDelay(Duration.ofSeconds(30))
				.maxAttempts(5)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
	}

	private void startAll(McpSupervisorToolCallbackProvider provider, McpServerSupervisor... servers) {
		for (McpServerSupervisor server : servers) {
			server.start();
		}
		this.scheduler.runReady();
		provider.start();
	}

	private static McpSupervisorToolCallbackProvider provider(Map<String, McpToolNaming> toolNames,
			@Nullable McpToolNamePrefixGenerator generator, McpServerSupervisor... servers) {
		return new McpSupervisorToolCallbackProvider(supervisors(servers), ToolCallObserver.NONE,
				(connection, tool) -> true, generator, ToolContextToMcpMetaConverter.defaultConverter(), toolNames);
	}

	private static McpSupervisors supervisors(McpServerSupervisor... supervisors) {
		return new McpSupervisors(Arrays.stream(supervisors)
			.map((supervisor) -> new SupervisedServer(supervisor, false, false, Duration.ofSeconds(1),
					Duration.ofSeconds(1)))
			.toList());
	}

	private static McpConnectionInfo connection(String server) {
		return new McpConnectionInfo(ClientCapabilities.builder().build(), ClientSpecs.clientInfo(server), null);
	}

	private static List<String> names(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map((callback) -> callback.getToolDefinition().name()).toList();
	}

	private static List<String> serversOf(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map((callback) -> ((SupervisedToolCallback) callback).getServerName()).toList();
	}

}
