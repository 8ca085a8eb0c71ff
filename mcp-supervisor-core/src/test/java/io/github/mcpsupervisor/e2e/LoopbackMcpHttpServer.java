package io.github.mcpsupervisor.e2e;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import javax.net.ssl.SSLContext;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal Streamable HTTP MCP server on a loopback port, written against the wire
 * protocol (JSON responses, a session id if asked, no server-to-client stream), that can
 * be told to misbehave: refuse every request with HTTP 401, answer the next calls with a
 * body that is not JSON, or close the event stream of a call before its result, to be
 * resumed with a GET carrying {@code Last-Event-ID}, leave requests unanswered, announce
 * changes of its lists and resources with every tool call's answer, or redirect every
 * request elsewhere. It records the requests and notifications it receives and counts the
 * connections its clients hold open; over https if given a TLS context. Its one tool,
 * {@code echo}, returns its {@code message}; it has no resources and no prompts, and
 * takes subscriptions.
 */
final class LoopbackMcpHttpServer implements AutoCloseable {

	private final JsonMapper json = JsonMapper.builder().build();

	private final HttpServer server;

	private final ExecutorService executor = Executors.newCachedThreadPool();

	private final AtomicInteger malformedAnswers = new AtomicInteger();

	private volatile boolean eventStream;

	private final AtomicInteger initializations = new AtomicInteger();

	private volatile boolean unauthorized;

	private final String sessionId = "session-" + System.nanoTime();

	private final boolean sessions;

	private final AtomicReference<Duration> interruptNextCall = new AtomicReference<>();

	private final AtomicReference<Interrupted> interrupted = new AtomicReference<>();

	private final List<Resumption> resumptions = new CopyOnWriteArrayList<>();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final List<Notification> notifications = new CopyOnWriteArrayList<>();

	private final CountDownLatch closed = new CountDownLatch(1);

	private final CountingProxy proxy;

	private volatile Set<String> hung = Set.of();

	private volatile boolean hangAfterHeaders;

	private final List<Hung> hungRequests = new CopyOnWriteArrayList<>();

	private volatile String updatedUri;

	private volatile URI redirectTo;

	private final String scheme;

	LoopbackMcpHttpServer() throws IOException {
		this(false);
	}

	/**
	 * Starts a server.
	 * @param sessions whether it gives each initialized client a session id
	 */
	LoopbackMcpHttpServer(boolean sessions) throws IOException {
		this(sessions, null);
	}

	/**
	 * Starts a server.
	 * @param sessions whether it gives each initialized client a session id
	 * @param tls the TLS context of an https server, or {@code null} for http
	 */
	LoopbackMcpHttpServer(boolean sessions, SSLContext tls) throws IOException {
		this.sessions = sessions;
		this.scheme = (tls != null) ? "https" : "http";
		InetSocketAddress loopback = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
		if (tls != null) {
			HttpsServer https = HttpsServer.create(loopback, 0);
			https.setHttpsConfigurator(new HttpsConfigurator(tls));
			this.server = https;
		}
		else {
			this.server = HttpServer.create(loopback, 0);
		}
		this.server.createContext("/", this::handle);
		this.server.setExecutor(this.executor);
		this.server.start();
		this.proxy = new CountingProxy(this.server.getAddress().getPort());
	}

	/** Returns the MCP endpoint, with the given query ({@code null} for none). */
	URI url(String query) {
		return URI.create(origin() + "/mcp" + ((query != null) ? "?" + query : ""));
	}

	/**
	 * Returns the scheme, host and port of the server, as {@code http://127.0.0.1:port}.
	 */
	String origin() {
		return this.scheme + "://127.0.0.1:" + this.proxy.port();
	}

	/** The proxy in front of the server, that sees its clients' connections. */
	CountingProxy connections() {
		return this.proxy;
	}

	/** How many connections its clients hold open now. */
	int openConnections() {
		return this.proxy.openConnections();
	}

	/**
	 * From now on, tool calls are accepted and never answered; pings still are.
	 * @param afterHeaders whether the answer's headers (of an event stream) are sent
	 * first
	 */
	void hangCalls(boolean afterHeaders) {
		hang(afterHeaders, Set.of("tools/call"));
	}

	/**
	 * From now on, requests of the given methods are accepted and never answered.
	 * @param afterHeaders whether the answer's headers (of an event stream) are sent
	 * first
	 * @param methods their methods
	 */
	void hang(boolean afterHeaders, Set<String> methods) {
		this.hangAfterHeaders = afterHeaders;
		this.hung = Set.copyOf(methods);
	}

	/** The JSON-RPC ids of the tool calls left unanswered. */
	List<JsonNode> hungCallIds() {
		return this.hungRequests.stream()
			.filter((request) -> "tools/call".equals(request.method()))
			.map(Hung::id)
			.toList();
	}

	/** The requests left unanswered, in order. */
	List<Hung> hungRequests() {
		return List.copyOf(this.hungRequests);
	}

	/**
	 * From now on, every tool call's answer is an event stream that first announces that
	 * the tools, resources and prompts changed and that the given resource was updated.
	 * @param uri the resource announced as updated
	 */
	void announceChanges(String uri) {
		this.updatedUri = uri;
	}

	/**
	 * From now on, every request is answered with a redirect (307) to the given URL.
	 * @param location where to
	 */
	void redirectTo(URI location) {
		this.redirectTo = location;
	}

	/** The requests received, in order. */
	List<Received> received() {
		return List.copyOf(this.received);
	}

	/** The notifications received, in order. */
	List<Notification> notifications() {
		return List.copyOf(this.notifications);
	}

	/** From now on, every request is refused with HTTP 401. */
	void refuseEveryRequest() {
		this.unauthorized = true;
	}

	/**
	 * The next {@code count} tool calls are answered with a body that is not JSON.
	 * @param count how many calls
	 * @param eventStream whether the answer is framed as a server-sent event (as
	 * server-everything answers) rather than a JSON body
	 */
	void answerMalformed(int count, boolean eventStream) {
		this.eventStream = eventStream;
		this.malformedAnswers.set(count);
	}

	/**
	 * The next tool call is answered with an event stream that carries one event with an
	 * {@code id}, a {@code retry} field and no data, and then closes without the result;
	 * a GET with that {@code Last-Event-ID} gets the result.
	 * @param retry the reconnection time the event announces
	 */
	void interruptNextCall(Duration retry) {
		this.interruptNextCall.set(retry);
	}

	/** The GET requests that resumed an interrupted call's event stream. */
	List<Resumption> resumptions() {
		return List.copyOf(this.resumptions);
	}

	/** The id of the last event sent before an interrupted call's stream was closed. */
	String interruptedEventId() {
		Interrupted current = this.interrupted.get();
		return (current != null) ? current.eventId() : null;
	}

	String sessionId() {
		return this.sessionId;
	}

	/** How many sessions were initialized. */
	int initializations() {
		return this.initializations.get();
	}

	private void handle(HttpExchange exchange) throws IOException {
		try (exchange) {
			this.received.add(new Received(exchange.getRequestMethod(), exchange.getRequestURI().toString(),
					exchange.getRequestHeaders().getFirst("Authorization")));
			URI location = this.redirectTo;
			if (location != null) {
				exchange.getResponseHeaders().set("Location", location.toString());
				exchange.sendResponseHeaders(307, -1);
				return;
			}
			if (this.unauthorized) {
				exchange.sendResponseHeaders(401, -1);
				return;
			}
			if ("GET".equals(exchange.getRequestMethod()) && resume(exchange)) {
				return;
			}
			if (!"POST".equals(exchange.getRequestMethod())) {
				exchange.sendResponseHeaders(405, -1); // no server-to-client stream
				return;
			}
			JsonNode message = this.json.readTree(exchange.getRequestBody().readAllBytes());
			if (!message.has("id")) {
				this.notifications.add(new Notification(message.path("method").asString(""), message.get("params"),
						System.nanoTime()));
				exchange.sendResponseHeaders(202, -1); // a notification
				return;
			}
			String method = message.get("method").asString();
			if (this.hung.contains(method)) {
				this.hungRequests.add(new Hung(method, message.get("id")));
				if (this.hangAfterHeaders) {
					exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
					exchange.sendResponseHeaders(200, 0);
					exchange.getResponseBody().flush();
				}
				awaitClose();
				return;
			}
			if ("tools/call".equals(method) && this.malformedAnswers.getAndUpdate((n) -> Math.max(0, n - 1)) > 0) {
				String malformed = "{\"jsonrpc\": \"2.0\", \"id\": " + message.get("id") + ", \"result\": {oops";
				if (this.eventStream) {
					respond(exchange, "text/event-stream", "event: message\ndata: " + malformed + "\n\n");
				}
				else {
					respond(exchange, "application/json", malformed);
				}
				return;
			}
			Map<String, Object> response = new LinkedHashMap<>();
			response.put("jsonrpc", "2.0");
			response.put("id", message.get("id"));
			response.put("result", result(method, message));
			Duration retry = "tools/call".equals(method) ? this.interruptNextCall.getAndSet(null) : null;
			if (retry != null) {
				interrupt(exchange, retry, this.json.writeValueAsString(response));
				return;
			}
			if ("initialize".equals(method) && this.sessions) {
				exchange.getResponseHeaders().set("Mcp-Session-Id", this.sessionId);
			}
			String uri = this.updatedUri;
			if ("tools/call".equals(method) && uri != null) {
				respond(exchange, "text/event-stream", announcements(uri) + event(response));
				return;
			}
			respond(exchange, "application/json", this.json.writeValueAsString(response));
		}
	}

	private String announcements(String uri) {
		StringBuilder events = new StringBuilder();
		for (String method : List.of("notifications/tools/list_changed", "notifications/resources/list_changed",
				"notifications/prompts/list_changed")) {
			events.append(event(Map.of("jsonrpc", "2.0", "method", method)));
		}
		events.append(event(
				Map.of("jsonrpc", "2.0", "method", "notifications/resources/updated", "params", Map.of("uri", uri))));
		return events.toString();
	}

	private String event(Object message) {
		return "event: message\ndata: " + this.json.writeValueAsString(message) + "\n\n";
	}

	// Sends the priming event of a resumable stream and closes it, keeping the result.
	private void interrupt(HttpExchange exchange, Duration retry, String result) throws IOException {
		String eventId = "call-" + System.nanoTime();
		exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
		exchange.sendResponseHeaders(200, 0);
		OutputStream out = exchange.getResponseBody();
		out.write(
				("id: " + eventId + "\nretry: " + retry.toMillis() + "\ndata: \n\n").getBytes(StandardCharsets.UTF_8));
		out.flush();
		this.interrupted.set(new Interrupted(eventId, result, System.nanoTime()));
		out.close();
	}

	// Answers a GET that resumes the interrupted stream with the result; false for any
	// other GET.
	private boolean resume(HttpExchange exchange) throws IOException {
		long arrived = System.nanoTime();
		String lastEventId = exchange.getRequestHeaders().getFirst("Last-Event-ID");
		Interrupted current = this.interrupted.get();
		if (lastEventId == null || current == null) {
			return false;
		}
		this.resumptions.add(new Resumption(lastEventId, exchange.getRequestHeaders().getFirst("Mcp-Session-Id"),
				TimeUnit.NANOSECONDS.toMillis(arrived - current.closedAt())));
		if (!lastEventId.equals(current.eventId())) {
			exchange.sendResponseHeaders(404, -1);
			return true;
		}
		respond(exchange, "text/event-stream",
				"id: " + current.eventId() + "-result\ndata: " + current.result() + "\n\n");
		return true;
	}

	private Object result(String method, JsonNode message) {
		return switch (method) {
			case "initialize" -> {
				this.initializations.incrementAndGet();
				yield Map.of("protocolVersion", message.at("/params/protocolVersion").asString(), "capabilities",
						Map.of("tools", Map.of("listChanged", true), "resources",
								Map.of("subscribe", true, "listChanged", true), "prompts", Map.of("listChanged", true)),
						"serverInfo", Map.of("name", "loopback", "version", "1.0.0"));
			}
			case "tools/list" -> Map.of("tools", List.of(Map.of("name", "echo", "inputSchema",
					Map.of("type", "object", "properties", Map.of("message", Map.of("type", "string"))))));
			case "resources/list" -> Map.of("resources", List.of());
			case "prompts/list" -> Map.of("prompts", List.of());
			case "resources/read" -> Map.of("contents", List.of());
			case "tools/call" -> Map.of("content",
					List.of(Map.of("type", "text", "text", message.at("/params/arguments/message").asString(""))));
			default -> Map.of();
		};
	}

	private static void respond(HttpExchange exchange, String contentType, String body) throws IOException {
		byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
		exchange.getResponseHeaders().set("Content-Type", contentType);
		exchange.sendResponseHeaders(200, bytes.length);
		try (OutputStream out = exchange.getResponseBody()) {
			out.write(bytes);
		}
	}

	private void awaitClose() {
		try {
			this.closed.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	@Override
	public void close() {
		this.closed.countDown();
		this.proxy.close();
		this.server.stop(0);
		this.executor.shutdownNow();
	}

	/**
	 * A request as it arrived.
	 *
	 * @param method its HTTP method
	 * @param target its request target: the path and query
	 * @param authorization its {@code Authorization} header, or {@code null}
	 */
	record Received(String method, String target, String authorization) {
	}

	/**
	 * A JSON-RPC notification as it arrived.
	 *
	 * @param method its method
	 * @param params its parameters, or {@code null}
	 * @param nanoTime when it arrived, as {@link System#nanoTime()}
	 */
	record Notification(String method, JsonNode params, long nanoTime) {
	}

	/**
	 * A GET that resumed an interrupted call's event stream.
	 *
	 * @param lastEventId its {@code Last-Event-ID}
	 * @param sessionId its {@code Mcp-Session-Id}
	 * @param millisAfterClose how long after the interrupted stream was closed it came
	 */
	record Resumption(String lastEventId, String sessionId, long millisAfterClose) {
	}

	/**
	 * A request left unanswered.
	 *
	 * @param method its method
	 * @param id its JSON-RPC id
	 */
	record Hung(String method, JsonNode id) {
	}

	private record Interrupted(String eventId, String result, long closedAt) {
	}

}
