package io.github.mcpsupervisor.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal stdio MCP server, written against the wire protocol, that lists its five
 * tools in three pages — a fixture for discovery that follows pagination.
 */
public final class PagingMcpServer {

	private static final List<List<String>> PAGES = List.of(List.of("t1", "t2"), List.of("t3", "t4"), List.of("t5"));

	private PagingMcpServer() {
	}

	public static void main(String[] args) throws IOException {
		JsonMapper json = JsonMapper.builder().build();
		PrintStream protocol = System.out;
		System.setOut(System.err);
		BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String line;
		while ((line = in.readLine()) != null) {
			JsonNode message = json.readTree(line);
			if (!message.has("id") || !message.has("method")) {
				continue;
			}
			Map<String, Object> response = new LinkedHashMap<>();
			response.put("jsonrpc", "2.0");
			response.put("id", message.get("id"));
			response.put("result", switch (message.get("method").asString()) {
				case "initialize" ->
					Map.of("protocolVersion", message.at("/params/protocolVersion").asString(), "capabilities",
							Map.of("tools", Map.of()), "serverInfo", Map.of("name", "paging", "version", "1.0.0"));
				case "tools/list" -> page(message.at("/params/cursor").asString(""));
				default -> Map.of();
			});
			protocol.println(json.writeValueAsString(response));
			protocol.flush();
		}
	}

	private static Map<String, Object> page(String cursor) {
		int index = cursor.isEmpty() ? 0 : Integer.parseInt(cursor);
		List<Map<String, Object>> tools = PAGES.get(index)
			.stream()
			.map((name) -> Map.<String, Object>of("name", name, "inputSchema", Map.of("type", "object")))
			.toList();
		return (index + 1 < PAGES.size()) ? Map.of("tools", tools, "nextCursor", String.valueOf(index + 1))
				: Map.of("tools", tools);
	}

}
