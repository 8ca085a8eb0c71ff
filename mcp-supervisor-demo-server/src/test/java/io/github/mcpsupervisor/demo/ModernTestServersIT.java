package io.github.mcpsupervisor.demo;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The TypeScript SDK v2 test servers driven by the MCP Java SDK's 2026-07-28 client, as
 * the end-to-end tests use them: every tool, the form elicitation by multi-round-trip,
 * the mirrored parameter header, a tool list change on {@code subscriptions/listen}, and
 * the exit after {@code crash}.
 */
class ModernTestServersIT {

	private static final Duration PATIENCE = Duration.ofSeconds(60);

	@Test
	void modernClientDrivesTheStdioServerOfOnly20260728() throws Exception {
		List<String> command = ServerCommands.modernStdio(npmDirectory(), false);
		ServerParameters parameters = ServerParameters.builder(command.get(0))
			.args(command.subList(1, command.size()))
			.build();
		try (StdioMcpClientTransport transport = StdioMcpClientTransport.builder(parameters).start()) {
			ProcessHandle server = exercise(transport, "acme: m");
			assertThat(server.onExit().get(PATIENCE.toSeconds(), TimeUnit.SECONDS).isAlive()).isFalse();
		}
	}

	@Test
	void modernClientDrivesTheHttpServerOfOnly20260728() throws Exception {
		Process server = ServerCommands.modernOverHttp(npmDirectory(), 0, false).start();
		try {
			int port = ServerCommands.listeningPort(server, PATIENCE);
			exercise(HttpClientMcpTransport.builder("http://127.0.0.1:" + port + "/mcp").build(),
					"acme: m (header acme)");
			assertThat(server.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
			assertThat(server.exitValue()).isEqualTo(3);
		}
		finally {
			server.destroyForcibly().waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS);
		}
	}

	private ProcessHandle exercise(McpClientTransport transport, String tenantReply) throws Exception {
		McpSyncClient client = McpClient.sync(transport)
			.formElicitation((request) -> ElicitResult.accept(Map.of("name", "Ada")))
			.build();
		assertThat(client.discover().supportedVersions()).containsExactly("2026-07-28");
		assertThat(client.tools().list().tools()).extracting(Tool::name)
			.containsExactlyInAnyOrder("echo", "get-sum", "slow", "pid", "crash", "ask-name", "ask-model", "list-roots",
					"log", "tenant-echo", "add-tool");
		assertThat(text(call(client, "echo", Map.of("message", "hi")))).isEqualTo("Echo: hi");
		assertThat(text(call(client, "get-sum", Map.of("a", 2, "b", 3)))).isEqualTo("The sum of 2 and 3 is 5.");
		assertThat(text(call(client, "slow", Map.of("ms", 50)))).isEqualTo("slept 50 ms");
		assertThat(text(call(client, "ask-name", Map.of()))).isEqualTo("Hello, Ada!");
		assertThat(text(call(client, "tenant-echo", Map.of("tenant", "acme", "message", "m")))).isEqualTo(tenantReply);
		CompletableFuture<SubscriptionEvent> subscribed = new CompletableFuture<>();
		CompletableFuture<SubscriptionEvent> changed = new CompletableFuture<>();
		try (McpSyncClient.Listening listening = client.listen().toolsChanged().open((event) -> {
			if (event instanceof SubscriptionEvent.Subscribed) {
				subscribed.complete(event);
			}
			if (event instanceof SubscriptionEvent.ToolsListChanged) {
				changed.complete(event);
			}
		})) {
			// a change made before the server acknowledged the stream is not sent on it
			subscribed.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
			assertThat(text(call(client, "add-tool", Map.of("name", "shout")))).isEqualTo("added shout");
			changed.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
		}
		assertThat(client.listTools().skipCache().list().tools()).extracting(Tool::name).contains("shout");
		ProcessHandle server = ProcessHandle.of(Long.parseLong(text(call(client, "pid", Map.of())))).orElseThrow();
		assertThat(text(call(client, "crash", Map.of()))).isEqualTo("pid " + server.pid() + " exits");
		return server;
	}

	private static CallToolResult call(McpSyncClient client, String tool, Map<String, Object> arguments) {
		return client.tool(tool).arguments(arguments).call();
	}

	private static String text(CallToolResult result) {
		assertThat(result.isError()).isNotEqualTo(Boolean.TRUE);
		return ((TextContent) result.content().get(0)).text();
	}

	private static Path npmDirectory() {
		return Path.of(System.getProperty("mcpsupervisor.test.npm-dir", "../test-servers"));
	}

}
