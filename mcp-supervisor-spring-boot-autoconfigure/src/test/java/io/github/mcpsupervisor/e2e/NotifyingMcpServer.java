package io.github.mcpsupervisor.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A minimal stdio MCP server, written against the wire protocol, that sends notifications
 * as its first argument says:
 * <ul>
 * <li>{@code tools-changing}: lists one more tool at every {@code tools/list}, and its
 * tool {@code echo} announces that its tools changed before it answers;</li>
 * <li>{@code updates <others> <watched>}: offers resource subscriptions; its tool
 * {@code flood} sends {@code notifications/resources/updated} for as many different
 * resources {@code flood:/other/<i>}, then as many for {@code flood:/watched}, before it
 * answers; its tool {@code reads} answers how many {@code resources/read} it was sent, as
 * {@code <all> <of flood:/watched>}.</li>
 * </ul>
 */
public final class NotifyingMcpServer {

	private NotifyingMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		switch (args[0]) {
			case "tools-changing" -> toolsChanging();
			case "updates" -> updates(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
			case "logging" -> logging();
			default -> throw new IllegalArgumentException("unknown mode " + args[0]);
		}
	}

	private static void toolsChanging() throws Exception {
		AtomicInteger listings = new AtomicInteger();
		RawMcpServer.serve("tools-changing", Map.of("tools", Map.of("listChanged", true)), (method, request) -> {
			switch (method) {
				case "tools/list" -> {
					List<String> names = new ArrayList<>(List.of("echo"));
					IntStream.range(0, listings.getAndIncrement()).forEach((i) -> names.add("t" + i));
					return Map.of("tools", tools(names));
				}
				case "tools/call" -> {
					Map<String, Object> answer = text(request.at("/params/name").asString() + " called");
					return new RawMcpServer.AfterNotifications(answer, "notifications/tools/list_changed", 1);
				}
				default -> {
					return Map.of();
				}
			}
		});
	}

	private static void updates(int others, int watched) throws Exception {
		AtomicInteger reads = new AtomicInteger();
		AtomicInteger watchedReads = new AtomicInteger();
		RawMcpServer.serve("updates",
				Map.of("tools", Map.of(), "resources", Map.of("subscribe", true, "listChanged", false)),
				(method, request) -> {
					switch (method) {
						case "tools/list" -> {
							return Map.of("tools", tools(List.of("flood", "reads")));
						}
						case "resources/read" -> {
							String uri = request.at("/params/uri").asString();
							int read = reads.incrementAndGet();
							if (uri.equals("flood:/watched")) {
								watchedReads.incrementAndGet();
							}
							return Map.of("contents", List.of(Map.of("uri", uri, "text", "read " + read)));
						}
						case "tools/call" -> {
							if (request.at("/params/name").asString().equals("reads")) {
								return text(reads.get() + " " + watchedReads.get());
							}
							Iterable<Map<String, Object>> updates = () -> IntStream.range(0, others + watched)
								.<Map<String, Object>>mapToObj(
										(i) -> Map.of("method", "notifications/resources/updated", "params",
												Map.of("uri", (i < others) ? "flood:/other/" + i : "flood:/watched")))
								.iterator();
							return new RawMcpServer.AfterMessages(text("flooded"), updates);
						}
						default -> {
							return Map.of();
						}
					}
				});
	}

	private static void logging() throws Exception {
		RawMcpServer.serve("logging", Map.of("tools", Map.of(), "logging", Map.of()), (method, request) -> {
			switch (method) {
				case "tools/list" -> {
					return Map.of("tools", tools(List.of("log", "echo")));
				}
				case "tools/call" -> {
					if (request.at("/params/name").asString().equals("echo")) {
						return text("echo called");
					}
					return new RawMcpServer.AfterMessages(text("logged"), List.of(Map.of("method",
							"notifications/message", "params", Map.of("level", "info", "data", "hello"))));
				}
				default -> {
					return Map.of();
				}
			}
		});
	}

	private static Map<String, Object> text(String text) {
		return Map.of("content", List.of(Map.of("type", "text", "text", text)));
	}

	private static List<Map<String, Object>> tools(List<String> names) {
		return names.stream()
			.map((name) -> Map.<String, Object>of("name", name, "inputSchema", Map.of("type", "object")))
			.toList();
	}

}
