package io.github.mcpsupervisor.e2e;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;

/**
 * A minimal stdio MCP server, written against the wire protocol, whose {@code tools/list}
 * misbehaves as its first argument says:
 * <ul>
 * <li>{@code endless [delayMillis]}: every page names a next page, each one tool;</li>
 * <li>{@code cycle}: the cursors go {@code a}, {@code b}, {@code a}, …;</li>
 * <li>{@code many <count> <perPage>}: that many tools, in pages of that size;</li>
 * <li>{@code tools <name>…}: the given tools in one page, duplicates included;</li>
 * <li>{@code error <bytes> [secret]}: tool {@code fail}, which answers every call with a
 * JSON-RPC error whose message is a forged log line, the secret and that many bytes
 * more;</li>
 * <li>{@code big-tools <bytes>}: tool {@code small}, tool {@code wordy} whose description
 * is that many bytes and tool {@code schematic} whose input schema is as large;</li>
 * <li>{@code fat-cursors <bytes> <pages>}: that many pages of one tool each, whose
 * cursors are that many bytes long;</li>
 * <li>{@code forging}: tool {@code poke}, which announces that the tools changed, and a
 * tool listed twice whose name is a forged log line with the value of {@code API_TOKEN};
 * every listing after the first answers a JSON-RPC error with such a line;</li>
 * <li>{@code prompts-only}: declares the prompts capability and not the tools one, and
 * answers {@code tools/list} with "method not found", as such servers do;</li>
 * <li>{@code resources-flood}: tools {@code flood}, which announces 1,000 times that its
 * resources changed before it answers, and {@code count}, which answers how many
 * {@code resources/list} requests it was sent; every page of its resources names a next
 * page.</li>
 * <li>{@code meta}: tool {@code meta}, which answers with the {@code _meta} of its call
 * as JSON.</li>
 * </ul>
 * Every tool answers a call with {@code <name> called}.
 */
public final class ListingMcpServer {

	private ListingMcpServer() {
	}

	public static void main(String[] args) throws Exception {
		boolean promptsOnly = args[0].equals("prompts-only");
		if (args[0].equals("resources-flood")) {
			floodResources();
			return;
		}
		if (args[0].equals("forging")) {
			forgeLogLines();
			return;
		}
		RawMcpServer.serve("listing", promptsOnly ? Map.of("prompts", Map.of()) : Map.of("tools", Map.of()),
				(method, request) -> {
					if (promptsOnly && method.startsWith("tools/")) {
						return new RawMcpServer.Error(-32601, "Method not found: " + method);
					}
					if (args[0].equals("error") && method.equals("tools/call")) {
						return new RawMcpServer.Error(-32603, "\n2026-12-01 ERROR forged "
								+ ((args.length > 2) ? args[2] : "") + " " + "x".repeat(Integer.parseInt(args[1])));
					}
					return switch (method) {
						case "tools/list" -> page(args, request.at("/params/cursor").asString(""));
						case "tools/call" ->
							args[0].equals("meta")
									? Map.of("content",
											List.of(Map.of("type", "text", "text",
													request.at("/params/_meta").toString())))
									: Map.of("content", List.of(Map.of("type", "text", "text",
											request.at("/params/name").asString() + " called")));
						default -> Map.of();
					};
				});
	}

	private static void forgeLogLines() throws Exception {
		String forged = "\n2026-12-01 ERROR forged " + System.getenv("API_TOKEN");
		AtomicInteger listings = new AtomicInteger();
		RawMcpServer.serve("forging", Map.of("tools", Map.of("listChanged", true)), (method, request) -> {
			if (method.equals("tools/list")) {
				return (listings.getAndIncrement() == 0)
						? Map.of("tools", tools(List.of("poke", "evil" + forged, "evil" + forged)))
						: new RawMcpServer.Error(-32603, "cannot list" + forged);
			}
			if (method.equals("tools/call")) {
				// a notification the client has no handler for, its method and params
				// forged, before the announcement
				Map<String, Object> unknown = Map.of("method", "notifications/unknown" + forged, "params",
						Map.of("padding", "x".repeat(1024 * 1024) + forged));
				return new RawMcpServer.AfterMessages(
						Map.of("content", List.of(Map.of("type", "text", "text", "poked"))),
						List.of(unknown, Map.of("method", "notifications/tools/list_changed")));
			}
			return Map.of();
		});
	}

	private static void floodResources() throws Exception {
		AtomicInteger listings = new AtomicInteger();
		RawMcpServer.serve("flooding", Map.of("tools", Map.of(), "resources", Map.of("listChanged", true)),
				(method, request) -> {
					switch (method) {
						case "tools/list" -> {
							return Map.of("tools", tools(List.of("flood", "count")));
						}
						case "resources/list" -> {
							int index = listings.getAndIncrement();
							return Map.of("resources", List.of(Map.of("uri", "flood:/" + index, "name", "r" + index)),
									"nextCursor", String.valueOf(index + 1));
						}
						case "tools/call" -> {
							boolean flood = request.at("/params/name").asString().equals("flood");
							Map<String, Object> answer = Map.of("content", List.of(Map.of("type", "text", "text",
									flood ? "flooded" : String.valueOf(listings.get()))));
							return flood ? new RawMcpServer.AfterNotifications(answer,
									"notifications/resources/list_changed", 1000) : answer;
						}
						default -> {
							return Map.of();
						}
					}
				});
	}

	private static Map<String, Object> page(String[] args, String cursor) throws InterruptedException {
		switch (args[0]) {
			case "endless" -> {
				if (args.length > 1) {
					Thread.sleep(Long.parseLong(args[1]));
				}
				int index = cursor.isEmpty() ? 0 : Integer.parseInt(cursor);
				return Map.of("tools", tools(List.of("t" + index)), "nextCursor", String.valueOf(index + 1));
			}
			case "cycle" -> {
				return Map.of("tools", tools(List.of("t" + cursor)), "nextCursor", (cursor.equals("a")) ? "b" : "a");
			}
			case "many" -> {
				int count = Integer.parseInt(args[1]);
				int perPage = Integer.parseInt(args[2]);
				int from = cursor.isEmpty() ? 0 : Integer.parseInt(cursor);
				int to = Math.min(count, from + perPage);
				List<String> names = IntStream.range(from, to).mapToObj((i) -> "t" + i).toList();
				return (to < count) ? Map.of("tools", tools(names), "nextCursor", String.valueOf(to))
						: Map.of("tools", tools(names));
			}
			case "tools" -> {
				return Map.of("tools", tools(List.of(args).subList(1, args.length)));
			}
			case "error" -> {
				return Map.of("tools", tools(List.of("fail")));
			}
			case "meta" -> {
				return Map.of("tools", tools(List.of("meta")));
			}
			case "big-tools" -> {
				String big = "y".repeat(Integer.parseInt(args[1]));
				return Map.of("tools",
						List.of(tools(List.of("small")).get(0),
								Map.of("name", "wordy", "description", big, "inputSchema", Map.of("type", "object")),
								Map.of("name", "schematic", "inputSchema", Map.of("type", "object", "properties",
										Map.of("text", Map.of("type", "string", "description", big))))));
			}
			case "fat-cursors" -> {
				int index = cursor.isEmpty() ? 0 : Integer.parseInt(cursor.substring(0, cursor.indexOf('-')));
				Map<String, Object> page = Map.of("tools", tools(List.of("t" + index)));
				return (index + 1 < Integer.parseInt(args[2])) ? Map.of("tools", page.get("tools"), "nextCursor",
						(index + 1) + "-" + "c".repeat(Integer.parseInt(args[1]))) : page;
			}
			default -> throw new IllegalArgumentException("unknown mode " + args[0]);
		}
	}

	private static List<Map<String, Object>> tools(List<String> names) {
		return names.stream()
			.map((name) -> Map.<String, Object>of("name", name, "inputSchema", Map.of("type", "object")))
			.toList();
	}

}
