package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.demo.DemoMcpServer;

/**
 * A minimal stdio MCP server, written against the wire protocol, that handles one request
 * at a time, as many simple servers do: while its tool {@code busy} works, nothing else
 * is answered, not even a ping.
 */
public final class SingleThreadedMcpServer {

	private SingleThreadedMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		RawMcpServer.serve("single-threaded", Map.of("tools", Map.of()), (method, request) -> switch (method) {
			case "tools/list" -> Map.of("tools", List.of(Map.of("name", "busy", "inputSchema",
					Map.of("type", "object", "properties", Map.of("millis", Map.of("type", "integer"))))));
			case "tools/call" -> busy(request.at("/params/arguments/millis").asLong());
			default -> Map.of();
		});
	}

	private static Map<String, Object> busy(long millis) throws InterruptedException {
		System.err.println(DemoMcpServer.CALL_STARTED + "busy");
		Thread.sleep(millis);
		return Map.of("content", List.of(Map.of("type", "text", "text", "done after " + millis + " ms")));
	}

}
