package io.github.mcpsupervisor.tool;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.zip.CRC32;

import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpUserAuthorizationException;
import io.github.mcpsupervisor.authorization.McpUserResolver;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.FakeConnector;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SupervisorListener;
import io.github.mcpsupervisor.supervisor.VirtualScheduler;
import io.github.mcpsupervisor.supervisor.internal.ChangeableMcpSupervisors;
import io.github.mcpsupervisor.tool.ToolCallObserver.Outcome;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.JSONRPCResponse.JSONRPCError;
import io.modelcontextprotocol.spec.McpSchema.TextContent;
import org.junit.jupiter.api.Test;

import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.mcp.McpConnectionInfo;
import org.springframework.ai.mcp.McpToolNamePrefixGenerator;
import org.springframework.ai.mcp.ToolContextToMcpMetaConverter;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.ToolExecutionException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The tool bridge: deterministic names, identical definitions across generations, routing
 * of captured callbacks to the live generation.
 */
class McpSupervisorToolCallbackProviderTests {

	private final VirtualScheduler scheduler = new VirtualScheduler();

	private final FakeConnector connector = new FakeConnector();

	private final McpServerSupervisor supervisor = supervisor("demo", this.connector);

	private final McpSupervisorToolCallbackProvider provider = provider(this.supervisor);

	@Test
	void toolsAreNamedServerUnderscoreTool() {
		startUp();
		assertThat(names(this.provider.getToolCallbacks())).containsExactly("demo_echo", "demo_add");
	}

	@Test
	void anObserverSeesTheNameTheModelCallsBesideTheServersName() {
		List<String> seen = new CopyOnWriteArrayList<>();
		McpSupervisorToolCallbackProvider observed = new McpSupervisorToolCallbackProvider(supervisors(this.supervisor),
				(server, serverTool, tool, outcome, duration) -> seen
					.add(server + " " + serverTool + " " + tool + " " + outcome));
		startUp();
		observed.getToolCallbacks()[0].call("{}");
		assertThat(seen).containsExactly("demo echo demo_echo SUCCESS");
	}

	@Test
	void aRecoveredServerWithTheSameToolsYieldsIdenticalDefinitions() {
		startUp();
		List<ToolDefinition> before = definitions(this.provider.getToolCallbacks());
		recover();
		assertThat(this.supervisor.tools().generation()).isEqualTo(2);
		assertThat(definitions(this.provider.getToolCallbacks())).isEqualTo(before);
	}

	@Test
	void theCallbacksAreCachedUntilTheToolsAreSwapped() {
		startUp();
		ToolCallback[] first = this.provider.getToolCallbacks();
		assertThat(this.provider.getToolCallbacks()[0]).isSameAs(first[0]);
		recover();
		assertThat(this.provider.getToolCallbacks()[0]).isNotSameAs(first[0]);
	}

	@Test
	void aCallbackCapturedBeforeASwapRoutesToTheLiveGeneration() {
		startUp();
		ToolCallback echo = this.provider.getToolCallbacks()[0];
		assertThat(echo.call("{}")).contains("echo from g1");
		recover();
		assertThat(echo.call("{}")).contains("echo from g2");
	}

	@Test
	void aCallbackCapturedBeforeAReplaceCallsTheServerThatReplacedIt() {
		ChangeableMcpSupervisors supervisors = supervisors(this.supervisor);
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors);
		startUp();
		ToolCallback echo = provider.getToolCallbacks()[0];
		FakeConnector replacing = new FakeConnector();
		McpServerSupervisor replacement = supervisor("demo", replacing);
		supervisors.replace(new SupervisedServer(replacement, false, false, Duration.ZERO, Duration.ZERO));
		replacement.start();
		this.scheduler.runReady();
		replacing.last().onCall = (request) -> CallToolResult.builder()
			.content(List.of(TextContent.builder("echo from the replacement").build()))
			.build();
		assertThat(echo.call("{}")).contains("echo from the replacement");
		replacement.stop();
		this.scheduler.runReady();
	}

	@Test
	void aCallbackCapturedBeforeAReplaceFailsClearlyWhenTheServerThatReplacedItLacksTheTool() {
		ChangeableMcpSupervisors supervisors = supervisors(this.supervisor);
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors);
		startUp();
		ToolCallback echo = provider.getToolCallbacks()[0];
		FakeConnector replacing = new FakeConnector();
		replacing.serverTools = List.of(FakeConnector.tool("other"));
		McpServerSupervisor replacement = supervisor("demo", replacing);
		supervisors.replace(new SupervisedServer(replacement, false, false, Duration.ZERO, Duration.ZERO));
		replacement.start();
		this.scheduler.runReady();
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.withMessage("MCP server 'demo' no longer offers tool 'echo' (it offers [other])");
		replacement.stop();
		this.scheduler.runReady();
	}

	@Test
	void aCallbackCapturedBeforeARemovalFailsClearlyAndRecordsNothingUnderTheRemovedName() {
		List<String> seen = new CopyOnWriteArrayList<>();
		ChangeableMcpSupervisors supervisors = new ChangeableMcpSupervisors(
				List.of(new SupervisedServer(this.supervisor, false, false, Duration.ZERO, Duration.ZERO)),
				SupervisorListener.NONE);
		McpSupervisorToolCallbackProvider provider = new McpSupervisorToolCallbackProvider(supervisors,
				(server, serverTool, tool, outcome, duration) -> seen.add(server + " " + tool + " " + outcome));
		startUp();
		ToolCallback echo = provider.getToolCallbacks()[0];
		echo.call("{}");
		supervisors.remove("demo");
		this.scheduler.runReady();
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.isInstanceOf(McpServerUnavailableException.class)
			.withMessage("MCP server 'demo' was removed: tool 'echo' is unavailable");
		assertThat(seen).containsExactly("demo demo_echo SUCCESS");
	}

	@Test
	void aToolTheNewGenerationNoLongerOffersFailsWithAClearMessage() {
		startUp();
		ToolCallback add = this.provider.getToolCallbacks()[1];
		this.connector.serverTools = List.of(FakeConnector.tool("echo"));
		recover();
		assertThat(names(this.provider.getToolCallbacks())).containsExactly("demo_echo");
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> add.call("{}"))
			.withCauseInstanceOf(McpServerUnavailableException.class)
			.havingCause()
			.withMessage("MCP server 'demo' no longer offers tool 'add' (it offers [echo])");
	}

	@Test
	void callsDuringAnOutageFailFastWithTheServersState() {
		startUp();
		ToolCallback echo = this.provider.getToolCallbacks()[0];
		this.connector.last().crash(137);
		this.scheduler.runReady();
		assertThat(names(this.provider.getToolCallbacks())).as("the last tool set stays registered")
			.containsExactly("demo_echo", "demo_add");
		assertThatExceptionOfType(ToolExecutionException.class).isThrownBy(() -> echo.call("{}"))
			.havingCause()
			.withMessageStartingWith("MCP server 'demo' is reconnecting");
	}

	@Test
	void namesAreSanitizedCutAt64AndUniqueDeterministically() {
		McpToolNames names = new McpToolNames(List.of("fs", "server"));
		assertThat(names.assign("fs", "read.file/v2")).isEqualTo("fs_read_file_v2");
		assertThat(names.assign("fs", "read_file_v2")).startsWith("fs_read_file_v2_").hasSize(24);
		String longName = names.assign("server", "t".repeat(80));
		assertThat(longName).hasSize(64).startsWith("server_ttt");
		assertThat(new McpToolNames(List.of("server")).assign("server", "t".repeat(80))).isEqualTo(longName);
		assertThat(new McpToolNames(List.of("a_b")).assign("a_b", "c")).isEqualTo("a_b_c");
	}

	@Test
	void aToolListedMoreThanOnceIsExposedOnce() {
		this.connector.serverTools = List.of(FakeConnector.tool("echo"), FakeConnector.tool("echo"),
				FakeConnector.tool("echo"), FakeConnector.tool("add"));
		startUp();
		assertThat(names(this.provider.getToolCallbacks())).containsExactly("demo_echo", "demo_add");
	}

	@Test
	void aHashedNameThatCollidesIsHashedAgain() {
		// the hashed name of t_x, listed first as a tool of its own
		CRC32 crc = new CRC32();
		crc.update("demo/t_x".getBytes(StandardCharsets.UTF_8));
		String hashedName = String.format("t_x_%08x", crc.getValue());
		this.connector.serverTools = List.of(FakeConnector.tool(hashedName), FakeConnector.tool("t.x"),
				FakeConnector.tool("t_x"));
		startUp();
		assertThat(names(this.provider.getToolCallbacks())).hasSize(3)
			.doesNotHaveDuplicates()
			.startsWith("demo_" + hashedName, "demo_t_x");
	}

	@Test
	void aToolsNameDoesNotDependOnWhichOtherServersAreUp() {
		// a's tool b_c and a_b's tool c could both be named a_b_c
		Map<String, List<String>> aFirst = namesWhenUp("a", "a_b");
		Map<String, List<String>> abFirst = namesWhenUp("a_b", "a");
		assertThat(aFirst).isEqualTo(abFirst);
		assertThat(aFirst.get("a_b")).containsExactly("a_b_c");
		assertThat(aFirst.get("a")).hasSize(2).contains("a_d").noneMatch("a_b_c"::equals);
	}

	// The names of each server's tools once the first server is up, then once both are;
	// they must not change in between.
	private Map<String, List<String>> namesWhenUp(String first, String second) {
		Map<String, FakeConnector> connectors = Map.of("a", new FakeConnector(), "a_b", new FakeConnector());
		connectors.get("a").serverTools = List.of(FakeConnector.tool("b_c"), FakeConnector.tool("d"));
		connectors.get("a_b").serverTools = List.of(FakeConnector.tool("c"));
		McpServerSupervisor a = supervisor("a", connectors.get("a"));
		McpServerSupervisor ab = supervisor("a_b", connectors.get("a_b"));
		McpSupervisorToolCallbackProvider both = provider(a, ab);
		Map<String, McpServerSupervisor> byName = Map.of("a", a, "a_b", ab);
		byName.get(first).start();
		this.scheduler.runReady();
		List<String> alone = namesOf(both.getToolCallbacks(), first);
		byName.get(second).start();
		this.scheduler.runReady();
		assertThat(names(both.getToolCallbacks())).doesNotHaveDuplicates();
		assertThat(namesOf(both.getToolCallbacks(), first)).as("names of %s once %s is up too", first, second)
			.isEqualTo(alone);
		return Map.of("a", namesOf(both.getToolCallbacks(), "a"), "a_b", namesOf(both.getToolCallbacks(), "a_b"));
	}

	@Test
	void aResultLargerThanTheLimitIsCutAndMarked() {
		startUp();
		// two bytes each in UTF-8: the cut must not split one
		String text = "é".repeat(3 * 1024 * 1024);
		this.connector.last().onCall = (
				request) -> CallToolResult.builder().content(List.of(TextContent.builder(text).build())).build();
		String result = this.provider.getToolCallbacks()[0].call("{}");
		assertThat(result).startsWith("[{\"text\":\"éé").endsWith("é…[truncated: 6 MB result, limit 1 MB]");
		assertThat(result.getBytes(StandardCharsets.UTF_8).length)
			.isLessThanOrEqualTo(SupervisedToolCallback.MAX_RESULT_BYTES + 64);
	}

	@Test
	void anErrorLargerThanTheLimitIsCutAndMarked() {
		startUp();
		this.connector.last().onCall = (request) -> CallToolResult.builder()
			.content(List.of(TextContent.builder("x".repeat(2 * 1024 * 1024)).build()))
			.isError(true)
			.build();
		assertThatExceptionOfType(ToolExecutionException.class)
			.isThrownBy(() -> this.provider.getToolCallbacks()[0].call("{}"))
			.havingCause()
			.withMessageStartingWith("Error calling tool: ")
			.withMessageEndingWith("…[truncated: 2 MB result, limit 1 MB]");
	}

	@Test
	void aJsonRpcErrorLargerThanTheLimitIsCutAndMarked() {
		startUp();
		this.connector.last().onCall = (request) -> {
			throw new McpError(new JSONRPCError(-32603, "é".repeat(1024 * 1024), null));
		};
		assertThatExceptionOfType(ToolExecutionException.class)
			.isThrownBy(() -> this.provider.getToolCallbacks()[0].call("{}"))
			.satisfies((ex) -> assertThat(ex.getMessage().getBytes(StandardCharsets.UTF_8).length)
				.isLessThanOrEqualTo(SupervisedToolCallback.MAX_RESULT_BYTES + 128))
			.havingCause()
			.withMessageStartingWith("MCP server 'demo' rejected the call: éé")
			.withMessageEndingWith("é…[truncated: 2 MB error message, limit 1 MB]");
	}

	@Test
	void aFailureWhoseMessageIsLargerThanTheLimitIsCutAndMarked() {
		startUp();
		this.connector.last().onCall = (request) -> {
			throw new IllegalStateException("x".repeat(3 * 1024 * 1024));
		};
		assertThatExceptionOfType(ToolExecutionException.class)
			.isThrownBy(() -> this.provider.getToolCallbacks()[0].call("{}"))
			.withMessageEndingWith("x…[truncated: 3 MB error message, limit 1 MB]")
			.withRootCauseInstanceOf(IllegalStateException.class);
	}

	@Test
	void aResultWithinTheLimitIsUntouched() {
		startUp();
		String text = "x".repeat(SupervisedToolCallback.MAX_RESULT_BYTES - 64);
		this.connector.last().onCall = (
				request) -> CallToolResult.builder().content(List.of(TextContent.builder(text).build())).build();
		assertThat(this.provider.getToolCallbacks()[0].call("{}")).isEqualTo("[{\"text\":\"" + text + "\"}]");
	}

	@Test
	void aToolFilterHidesToolsGivenTheConnectionOfTheGenerationThatListedThem() {
		startUp();
		List<McpConnectionInfo> seen = new CopyOnWriteArrayList<>();
		McpSupervisorToolCallbackProvider filtered = new McpSupervisorToolCallbackProvider(supervisors(this.supervisor),
				ToolCallObserver.NONE, (connection, tool) -> seen.add(connection) && !tool.name().equals("add"), null,
				ToolContextToMcpMetaConverter.defaultConverter());
		assertThat(names(filtered.getToolCallbacks())).containsExactly("demo_echo");
		assertThat(seen).extracting((connection) -> connection.clientInfo().title()).containsOnly("demo");
	}

	@Test
	void aNameGeneratorRenamesTheToolsAndACollisionCostsOnlyTheLaterTool() {
		startUp();
		FakeConnector otherConnector = new FakeConnector();
		McpServerSupervisor other = supervisor("other", otherConnector);
		other.start();
		this.scheduler.runReady();
		McpSupervisorToolCallbackProvider renamed = new McpSupervisorToolCallbackProvider(
				supervisors(this.supervisor, other), ToolCallObserver.NONE, (connection, tool) -> true,
				(connection, tool) -> connection.clientInfo().title() + "-" + tool.name(),
				ToolContextToMcpMetaConverter.defaultConverter());
		assertThat(names(renamed.getToolCallbacks())).containsExactly("demo-echo", "demo-add", "other-echo",
				"other-add");
		McpSupervisorToolCallbackProvider colliding = new McpSupervisorToolCallbackProvider(
				supervisors(this.supervisor, other), ToolCallObserver.NONE, (connection, tool) -> true,
				McpToolNamePrefixGenerator.noPrefix(), ToolContextToMcpMetaConverter.defaultConverter());
		assertThat(names(colliding.getToolCallbacks())).as("other's echo is left out, with an error")
			.containsExactly("echo", "add");
	}

	@Test
	void aMetaConverterTurnsTheToolContextIntoTheCallsMeta() {
		startUp();
		List<Map<String, Object>> metas = new CopyOnWriteArrayList<>();
		this.connector.last().onCall = (request) -> {
			metas.add(request.meta());
			return CallToolResult.builder().content(List.of(TextContent.builder("ok").build())).build();
		};
		McpSupervisorToolCallbackProvider converting = new McpSupervisorToolCallbackProvider(
				supervisors(this.supervisor), ToolCallObserver.NONE, (connection, tool) -> true, null,
				(context) -> Map.of("tenant", context.getContext().get("tenant")));
		converting.getToolCallbacks()[0].call("{}", new ToolContext(Map.of("tenant", "acme", "secret", "s")));
		assertThat(metas).containsExactly(Map.of("tenant", "acme"));
	}

	@Test
	void theUserACallActsForIsBoundDuringTheCallAndNeverSentInItsMeta() {
		startUp();
		List<Map<String, Object>> metas = new CopyOnWriteArrayList<>();
		List<Caller> callers = new CopyOnWriteArrayList<>();
		this.connector.last().onCall = (request) -> {
			metas.add(request.meta());
			callers.add(Caller.current());
			return CallToolResult.builder().content(List.of(TextContent.builder("ok").build())).build();
		};
		McpSupervisorToolCallbackProvider converting = new McpSupervisorToolCallbackProvider(
				supervisors(this.supervisor), ToolCallObserver.NONE, (connection, tool) -> true, null,
				ToolContextToMcpMetaConverter.defaultConverter());
		converting.getToolCallbacks()[0].call("{}",
				new ToolContext(Map.of("tenant", "acme", McpUserResolver.TOOL_CONTEXT_KEY, "ada")));
		converting.getToolCallbacks()[0].call("{}");
		assertThat(metas.get(0)).containsEntry("tenant", "acme").doesNotContainKey(McpUserResolver.TOOL_CONTEXT_KEY);
		assertThat(callers).containsExactly(Caller.of("ada"), Caller.NO_USER);
		assertThat(Caller.current()).isNull();
	}

	@Test
	void aCallWhoseUserMustConnectAnswersTheModelWithTheNotice() {
		startUp();
		this.connector.last().onCall = (request) -> {
			throw new McpUserAuthorizationException("demo", "MCP server 'demo' needs you to connect your account",
					new McpAuthorizationRequest("demo", "drive", URI.create("https://as.example.com/authorize?state=s"),
							List.of("files:read"), Instant.EPOCH, "ada"),
					false);
		};
		List<Outcome> outcomes = new CopyOnWriteArrayList<>();
		McpSupervisorToolCallbackProvider observed = new McpSupervisorToolCallbackProvider(supervisors(this.supervisor),
				(server, tool, exposed, outcome, duration) -> outcomes.add(outcome));
		assertThat(observed.getToolCallbacks()[0].call("{}"))
			.isEqualTo("MCP server 'demo' needs you to connect your account");
		assertThat(outcomes).containsExactly(Outcome.UNAUTHORIZED);
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	private McpServerSupervisor supervisor(String name, FakeConnector connector) {
		return McpServerSupervisor.builder(name, connector, this.scheduler)
			.reconnect(ReconnectPolicy.builder()
				.initialDelay(Duration.ofMillis(500))
				.maxDelay(Duration.ofSeconds(30))
				.maxAttempts(5)
				.jitter(0)
				.build())
			.calls(CallPolicy.builder().waitForRecovery(Duration.ZERO).retry(CallPolicy.Retry.SAFE).build())
			.healthCheck(HealthCheckPolicy.disabled(Duration.ofSeconds(5)))
			.build();
	}

	private static McpSupervisorToolCallbackProvider provider(McpServerSupervisor... supervisors) {
		return new McpSupervisorToolCallbackProvider(supervisors(supervisors));
	}

	private static ChangeableMcpSupervisors supervisors(McpServerSupervisor... supervisors) {
		return new ChangeableMcpSupervisors(Arrays.stream(supervisors)
			.map((supervisor) -> new SupervisedServer(supervisor, false, false, Duration.ofSeconds(1),
					Duration.ofSeconds(1)))
			.toList(), SupervisorListener.NONE);
	}

	private static List<String> namesOf(ToolCallback[] callbacks, String server) {
		return Arrays.stream(callbacks)
			.map(SupervisedToolCallback.class::cast)
			.filter((callback) -> callback.getServerName().equals(server))
			.map((callback) -> callback.getToolDefinition().name())
			.toList();
	}

	/**
	 * Starts and waits for UP.
	 */
	private void startUp() {
		this.supervisor.start();
		this.scheduler.runReady();
		assertThat(this.supervisor.state()).isEqualTo(McpServerState.UP);
	}

	private void recover() {
		this.connector.last().crash(1);
		this.scheduler.runReady();
		this.scheduler.advance(Duration.ofSeconds(5));
	}

	private static List<String> names(ToolCallback[] callbacks) {
		return definitions(callbacks).stream().map(ToolDefinition::name).toList();
	}

	private static List<ToolDefinition> definitions(ToolCallback[] callbacks) {
		return Arrays.stream(callbacks).map(ToolCallback::getToolDefinition).toList();
	}

}
