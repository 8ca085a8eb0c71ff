package io.github.mcpsupervisor.demo;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.lang.ProcessBuilder.Redirect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.JsonRpc.JSONRPCResponse;
import io.modelcontextprotocol.modern.McpSchema.CallToolResult;
import io.modelcontextprotocol.modern.McpSchema.ElicitFormRequest;
import io.modelcontextprotocol.modern.McpSchema.ElicitResult;
import io.modelcontextprotocol.modern.McpSchema.TextContent;
import io.modelcontextprotocol.modern.McpSchema.Tool;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpSyncClient;
import io.modelcontextprotocol.modern.client.McpSyncSubscriptionListener;
import io.modelcontextprotocol.modern.client.SubscriptionEvent;
import io.modelcontextprotocol.modern.client.transport.HttpClientMcpTransport;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.modern.client.transport.StdioMcpClientTransport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * End-to-end tests of the demo server in revision 2026-07-28: real processes over stdio
 * and stateless Streamable HTTP, driven by the SDK's modern client.
 */
class ModernDemoServerIT {

	private static final Duration START = Duration.ofSeconds(60);

	private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
			+ "\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
			+ "\"clientInfo\":{\"name\":\"legacy\",\"version\":\"1.0.0\"}}}";

	private final McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();

	private final List<Process> processes = new ArrayList<>();

	private final List<StdioMcpClientTransport> stdioTransports = new ArrayList<>();

	@AfterEach
	void stopServers() throws InterruptedException {
		this.stdioTransports.forEach(StdioMcpClientTransport::close);
		for (Process process : this.processes) {
			process.destroyForcibly();
			process.waitFor(30, TimeUnit.SECONDS);
		}
	}

	@Test
	void stdioServerAnswersDiscoveryToolsElicitationAndHeaderTool() throws IOException {
		McpSyncClient client = client(stdio());
		assertThat(client.discover().supportedVersions()).containsExactly("2026-07-28");
		assertThat(client.tools().list().tools()).extracting(Tool::name)
			.contains("echo", "add", "crash", "slow", "pid", "list-requests", "add-tool", "ask-name", "region-echo");
		assertThat(text(client.tool("echo").arguments(Map.of("message", "hello")).call())).isEqualTo("hello");
		assertThat(text(client.tool("ask-name").call())).isEqualTo("Hello, Ada! (state ask-name:round-1)");
		// stdio carries no headers: nothing to mirror
		assertThat(text(client.tool("region-echo").arguments(Map.of("region", "eu-west")).call()))
			.isEqualTo("region eu-west, header none");
	}

	@Test
	void httpServerAnswersDiscoveryToolsElicitationAndMirroredHeader() {
		McpSyncClient client = client(http());
		assertThat(client.discover().supportedVersions()).containsExactly("2026-07-28");
		assertThat(client.tools().list().tools()).extracting(Tool::name).contains("echo", "ask-name", "region-echo");
		assertThat(text(client.tool("add").arguments(Map.of("a", 2, "b", 3)).call())).isEqualTo("5");
		assertThat(text(client.tool("ask-name").call())).isEqualTo("Hello, Ada! (state ask-name:round-1)");
		assertThat(text(client.tool("region-echo").arguments(Map.of("region", "eu-west")).call()))
			.isEqualTo("region eu-west, header eu-west");
	}

	@Test
	void stdioServerRejectsInitializeNamingItsVersions() throws IOException {
		Process process = start(new ProcessBuilder(ServerCommands.modernDemo()).redirectError(Redirect.INHERIT));
		OutputStream stdin = process.getOutputStream();
		stdin.write((INITIALIZE + "\n").getBytes(StandardCharsets.UTF_8));
		stdin.flush();
		BufferedReader stdout = new BufferedReader(
				new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
		assertUnsupportedVersion(stdout.readLine());
	}

	@Test
	void httpServerRejectsInitializeNamingItsVersions() throws Exception {
		int port = httpPort();
		HttpRequest request = HttpRequest.newBuilder(URI.create(ServerCommands.modernDemoUrl(port)))
			.header("Content-Type", "application/json")
			.header("Accept", "application/json, text/event-stream")
			.header("MCP-Protocol-Version", "2025-11-25")
			.POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
			.build();
		HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(400);
		assertUnsupportedVersion(response.body());
	}

	@Test
	void dualStdioServerServesLegacyAndModernClients() {
		ServerParameters parameters = parameters(ServerCommands.dualDemo());
		io.modelcontextprotocol.client.McpSyncClient legacy = io.modelcontextprotocol.client.McpClient
			.sync(new StdioClientTransport(parameters, this.jsonMapper))
			.requestTimeout(START)
			.initializationTimeout(START)
			.build();
		try {
			assertThat(legacy.initialize().protocolVersion()).isEqualTo("2025-11-25");
			io.modelcontextprotocol.spec.McpSchema.CallToolResult result = legacy
				.callTool(io.modelcontextprotocol.spec.McpSchema.CallToolRequest.builder("echo")
					.arguments(Map.of("message", "old"))
					.build());
			assertThat(result.content()).singleElement()
				.extracting((content) -> ((io.modelcontextprotocol.spec.McpSchema.TextContent) content).text())
				.isEqualTo("old");
		}
		finally {
			legacy.close();
		}
		McpSyncClient modern = client(track(StdioMcpClientTransport.builder(parameters).start()));
		assertThat(modern.discover().supportedVersions()).containsExactly("2026-07-28");
		assertThat(text(modern.tool("echo").arguments(Map.of("message", "new")).call())).isEqualTo("new");
	}

	@Test
	void addToolReachesToolsChangedSubscriber() throws IOException {
		McpSyncClient client = client(stdio());
		BlockingQueue<SubscriptionEvent> events = new LinkedBlockingQueue<>();
		McpSyncSubscriptionListener listener = events::add;
		try (McpSyncClient.Listening listening = client.listen().toolsChanged().open(listener)) {
			await().atMost(START).until(() -> events.stream().anyMatch(SubscriptionEvent.Subscribed.class::isInstance));
			assertThat(text(client.tool("add-tool").arguments(Map.of("name", "late")).call())).isEqualTo("added late");
			await().atMost(START)
				.until(() -> events.stream().anyMatch(SubscriptionEvent.ToolsListChanged.class::isInstance));
		}
		assertThat(client.tools().list().tools()).extracting(Tool::name).contains("late");
		assertThat(text(client.tool("late").call())).isEqualTo("late");
	}

	@Test
	void crashRepliesThenExitsWithItsCode() throws Exception {
		Process process = start(new ProcessBuilder(ServerCommands.modernDemo()).redirectError(Redirect.INHERIT));
		McpSyncClient client = client(
				track(StdioMcpClientTransport.builder(process.getInputStream(), process.getOutputStream()).start()));
		assertThat(text(client.tool("crash").arguments(Map.of("exitCode", 7)).call()))
			.isEqualTo("crashing with exit code 7");
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isEqualTo(7);
	}

	@Test
	void httpServerExitsWhenItsInputCloses() throws Exception {
		Process process = start(ServerCommands.modernDemoOverHttp(0));
		int port = ServerCommands.awaitHttpPort(process, START);
		assertThat(ServerCommands.isListening(port)).isTrue();
		process.getOutputStream().close();
		assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
		assertThat(process.exitValue()).isZero();
		assertThat(ServerCommands.isListening(port)).isFalse();
	}

	private void assertUnsupportedVersion(String line) throws IOException {
		JSONRPCResponse response = this.jsonMapper.readValue(line, JSONRPCResponse.class);
		assertThat(response.error().code()).isEqualTo(-32022);
		assertThat(response.error().message()).contains("2025-11-25", "2026-07-28");
		assertThat(response.error().data())
			.isEqualTo(Map.of("supported", List.of("2026-07-28"), "requested", "2025-11-25"));
	}

	private StdioMcpClientTransport stdio() {
		return track(StdioMcpClientTransport.builder(parameters(ServerCommands.modernDemo())).start());
	}

	private static ServerParameters parameters(List<String> command) {
		return ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
	}

	private HttpClientMcpTransport http() {
		return HttpClientMcpTransport.builder(ServerCommands.modernDemoUrl(httpPort())).build();
	}

	private int httpPort() {
		try {
			return ServerCommands.awaitHttpPort(start(ServerCommands.modernDemoOverHttp(0)), START);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private Process start(ProcessBuilder builder) throws IOException {
		Process process = builder.start();
		this.processes.add(process);
		return process;
	}

	private StdioMcpClientTransport track(StdioMcpClientTransport transport) {
		this.stdioTransports.add(transport);
		return transport;
	}

	private static McpSyncClient client(McpClientTransport transport) {
		return McpClient.sync(transport).formElicitation(ModernDemoServerIT::answerName).callTimeout(START).build();
	}

	private static ElicitResult answerName(ElicitFormRequest request) {
		assertThat(request.message()).isEqualTo("What is your name?");
		return ElicitResult.accept(Map.of("name", "Ada"));
	}

	private static String text(CallToolResult result) {
		assertThat(result.isError()).isFalse();
		return ((TextContent) result.content().get(0)).text();
	}

}
