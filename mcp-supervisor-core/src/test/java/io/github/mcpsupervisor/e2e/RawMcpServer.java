package io.github.mcpsupervisor.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The wire protocol of the minimal stdio MCP server fixtures: reads one JSON-RPC request
 * per stdin line, one at a time, answers {@code initialize} with the given capabilities
 * and every other request with what the handler returns.
 */
final class RawMcpServer {

	/** What a handler returns to leave a request unanswered. */
	static final Object NO_ANSWER = new Object();

	private RawMcpServer() {
	}

	/**
	 * Serves requests until stdin ends.
	 * @param name the server's name in its {@code initialize} answer
	 * @param capabilities the capabilities it declares
	 * @param handler answers every other request
	 * @throws Exception if the handler fails or a line is not JSON
	 */
	static void serve(String name, Map<String, Object> capabilities, Handler handler) throws Exception {
		serve(name, capabilities, handler, (notification) -> {
		});
	}

	/**
	 * Serves requests until stdin ends, handing the notifications it receives to a
	 * consumer.
	 * @param name the server's name in its {@code initialize} answer
	 * @param capabilities the capabilities it declares
	 * @param handler answers every other request; {@link #NO_ANSWER} leaves it unanswered
	 * @param notifications receives the notifications
	 * @throws Exception if the handler fails or a line is not JSON
	 */
	static void serve(String name, Map<String, Object> capabilities, Handler handler, Consumer<JsonNode> notifications)
			throws Exception {
		JsonMapper json = JsonMapper.builder().build();
		PrintStream protocol = System.out;
		// stdout carries the protocol only
		System.setOut(System.err);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null) {
			JsonNode request = json.readTree(line);
			if (!request.has("id") && request.has("method")) {
				notifications.accept(request);
				continue;
			}
			if (!request.has("id") || !request.has("method")) {
				continue;
			}
			String method = request.get("method").asString();
			Object answer = method.equals("initialize")
					? Map.of("protocolVersion", request.at("/params/protocolVersion").asString(), "capabilities",
							capabilities, "serverInfo", Map.of("name", name, "version", "1.0.0"))
					: handler.answer(method, request);
			if (answer == NO_ANSWER) {
				continue;
			}
			if (answer instanceof Later later) {
				// answered later on a thread of the JDK's: the server goes on reading
				// meanwhile
				JsonNode id = request.get("id");
				CompletableFuture.runAsync(() -> answerLater(protocol, json, id, later.answer()),
						CompletableFuture.delayedExecutor(later.after().toMillis(), TimeUnit.MILLISECONDS));
				continue;
			}
			if (answer instanceof AfterNotifications after) {
				String notification = json.writeValueAsString(Map.of("jsonrpc", "2.0", "method", after.method()));
				for (int i = 0; i < after.count(); i++) {
					protocol.println(notification);
				}
				answer = after.answer();
			}
			if (answer instanceof AfterMessages after) {
				for (Map<String, Object> message : after.notifications()) {
					Map<String, Object> notification = new LinkedHashMap<>();
					notification.put("jsonrpc", "2.0");
					notification.putAll(message);
					protocol.println(json.writeValueAsString(notification));
				}
				answer = after.answer();
			}
			Map<String, Object> response = new LinkedHashMap<>();
			response.put("jsonrpc", "2.0");
			response.put("id", request.get("id"));
			if (answer instanceof Error error) {
				response.put("error", Map.of("code", error.code(), "message", error.message()));
			}
			else {
				response.put("result", answer);
			}
			protocol.println(json.writeValueAsString(response));
			protocol.flush();
		}
	}

	private static void answerLater(PrintStream protocol, JsonMapper json, JsonNode id, Object answer) {
		synchronized (protocol) {
			protocol.println(json.writeValueAsString(Map.of("jsonrpc", "2.0", "id", id, "result", answer)));
			protocol.flush();
		}
	}

	/**
	 * Answers one request.
	 */
	@FunctionalInterface
	interface Handler {

		/**
		 * Answers a request.
		 * @param method the request's method
		 * @param request the whole request
		 * @return its result, or an {@link Error}
		 * @throws IOException if the request cannot be answered
		 * @throws InterruptedException if answering was interrupted
		 */
		Object answer(String method, JsonNode request) throws IOException, InterruptedException;

	}

	/**
	 * An answer sent after as many notifications of a method.
	 *
	 * @param answer the answer
	 * @param method the notifications' method
	 * @param count how many are sent first
	 */
	record AfterNotifications(Object answer, String method, int count) {

	}

	/**
	 * An answer sent after the given notifications, each a method and its params.
	 *
	 * @param answer the answer
	 * @param notifications the notifications sent first, produced as they are sent
	 */
	record AfterMessages(Object answer, Iterable<Map<String, Object>> notifications) {

	}

	/**
	 * A result sent after a while, other requests being read and answered meanwhile.
	 *
	 * @param answer the result
	 * @param after how long after the request it is sent
	 */
	record Later(Object answer, Duration after) {

	}

	/**
	 * A JSON-RPC error answer.
	 *
	 * @param code the error code
	 * @param message the error message
	 */
	record Error(int code, String message) {

	}

}
