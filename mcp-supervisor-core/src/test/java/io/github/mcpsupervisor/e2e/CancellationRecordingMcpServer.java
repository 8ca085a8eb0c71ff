package io.github.mcpsupervisor.e2e;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import tools.jackson.databind.JsonNode;

/**
 * A minimal stdio MCP server, written against the wire protocol, whose tool {@code hang}
 * is never answered, whose tool {@code slow} answers after {@code millis} (reading and
 * answering other requests meanwhile), and whose tool {@code cancellations} tells the
 * {@code notifications/cancelled} it received, one JSON object per line.
 */
public final class CancellationRecordingMcpServer {

	private CancellationRecordingMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		List<String> cancellations = new CopyOnWriteArrayList<>();
		RawMcpServer.serve("cancellation-recording", Map.of("tools", Map.of()), (method, request) -> switch (method) {
			case "tools/list" -> Map.of("tools",
					List.of(Map.of("name", "hang", "inputSchema", Map.of("type", "object")),
							Map.of("name", "slow", "inputSchema", Map.of("type", "object")),
							Map.of("name", "cancellations", "inputSchema", Map.of("type", "object"))));
			case "tools/call" -> switch (request.at("/params/name").asString()) {
				case "hang" -> RawMcpServer.NO_ANSWER;
				case "slow" -> new RawMcpServer.Later(text("slept"),
						Duration.ofMillis(request.at("/params/arguments/millis").asLong()));
				default -> text(String.join("\n", cancellations));
			};
			default -> Map.of();
		}, (notification) -> record(notification, cancellations));
	}

	private static Map<String, Object> text(String text) {
		return Map.of("content", List.of(Map.of("type", "text", "text", text)));
	}

	private static void record(JsonNode notification, List<String> cancellations) {
		if ("notifications/cancelled".equals(notification.path("method").asString(""))) {
			cancellations.add(notification.get("params").toString());
		}
	}

}
