package io.github.mcpsupervisor.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.mcpsupervisor.demo.DemoMcpServer;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A minimal stdio MCP server, written against the wire protocol, that handles one request
 * at a time, as many simple servers do: while its tool {@code busy} works, nothing else
 * is answered, not even a ping.
 */
public final class SingleThreadedMcpServer {

	private SingleThreadedMcpServer() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
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
			Object result = switch (message.get("method").asString()) {
				case "initialize" -> Map.of("protocolVersion", message.at("/params/protocolVersion").asString(),
						"capabilities", Map.of("tools", Map.of()), "serverInfo",
						Map.of("name", "single-threaded", "version", "1.0.0"));
				case "tools/list" -> Map.of("tools", List.of(Map.of("name", "busy", "inputSchema",
						Map.of("type", "object", "properties", Map.of("millis", Map.of("type", "integer"))))));
				case "tools/call" -> busy(message.at("/params/arguments/millis").asLong());
				default -> Map.of();
			};
			Map<String, Object> response = new LinkedHashMap<>();
			response.put("jsonrpc", "2.0");
			response.put("id", message.get("id"));
			response.put("result", result);
			protocol.println(json.writeValueAsString(response));
			protocol.flush();
		}
	}

	private static Map<String, Object> busy(long millis) throws InterruptedException {
		System.err.println(DemoMcpServer.CALL_STARTED + "busy");
		Thread.sleep(millis);
		return Map.of("content", List.of(Map.of("type", "text", "text", "done after " + millis + " ms")));
	}

}
