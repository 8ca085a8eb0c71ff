package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;

/**
 * A minimal stdio MCP server, written against the wire protocol, that lists its five
 * tools in three pages — a fixture for discovery that follows pagination.
 */
public final class PagingMcpServer {

	private static final List<List<String>> PAGES = List.of(List.of("t1", "t2"), List.of("t3", "t4"), List.of("t5"));

	private PagingMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		RawMcpServer.serve("paging", Map.of("tools", Map.of()), (method, request) -> method.equals("tools/list")
				? page(request.at("/params/cursor").asString("")) : Map.of());
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
