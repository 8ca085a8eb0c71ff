package io.github.mcpsupervisor.transport.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.CauseChain;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Lists a server's tools page by page within limits, so that a server that pages without
 * end, cycles its cursors, lists too many tools or too many bytes fails the listing
 * instead of hanging it or exhausting memory (a page left unanswered is cancelled). The
 * SDK's own {@code listTools()} follows {@code nextCursor} without any limit. A tool
 * whose description or schema is over its limit is left out with a warning: it would be
 * sent to the model on every request.
 *
 * @since 0.1.0
 */
public final class ToolListing {

	/**
	 * The most pages of one listing: {@value #MAX_TOOLS} tools in pages of ten, fewer
	 * than any server pages that we know of.
	 */
	static final int MAX_PAGES = 100;

	/**
	 * The most tools of one server. Models accept far fewer tools per request (128 at
	 * OpenAI), so more are a broken or hostile server rather than a large one.
	 */
	static final int MAX_TOOLS = 1000;

	/**
	 * The most bytes (UTF-8) of a tool's description. The descriptions of real servers'
	 * tools run to a few KB at most; every tool is sent to the model on every request, so
	 * a longer one costs every request its tokens.
	 */
	static final int MAX_DESCRIPTION_BYTES = 16 * 1024;

	/**
	 * The most bytes (as JSON) of a tool's input schema, and of its output schema. The
	 * largest schemas of real servers are a few tens of KB.
	 */
	static final int MAX_SCHEMA_BYTES = 64 * 1024;

	/**
	 * The most bytes (as JSON) of one listing, all its tools and cursors together: held
	 * in memory until the listing ends. As much as one stdio line may carry.
	 */
	static final int MAX_LISTING_BYTES = 16 * 1024 * 1024;

	private static final Log logger = LogFactory.getLog(ToolListing.class);

	private static final int KB = 1024;

	private static final int MAX_CURSOR_SHOWN = 64;

	private ToolListing() {
	}

	/**
	 * Lists every tool of the server, each name once (the first definition wins). A
	 * server that does not declare the tools capability (one that only offers prompts or
	 * resources) is not asked and has no tools.
	 * @param client the client of the generation
	 * @param server the server's name
	 * @param timeout how long the whole listing may take, all pages together
	 * @param loggable makes a text of the server fit for a log line
	 * @return the tools in the server's order
	 * @throws ToolListingException if the listing broke a limit
	 */
	static List<Tool> listAll(McpAsyncClient client, String server, Duration timeout, UnaryOperator<String> loggable) {
		ServerCapabilities capabilities = client.getServerCapabilities();
		if (capabilities == null || capabilities.tools() == null) {
			return List.of();
		}
		return listAll(client::listTools, server, timeout, loggable);
	}

	/**
	 * Lists every tool of the server, each name once (the first definition wins), page by
	 * page as the given source answers them.
	 * @param source answers one page of the listing, the first one for a {@code null}
	 * cursor
	 * @param server the server's name
	 * @param timeout how long the whole listing may take, all pages together
	 * @param loggable makes a text of the server fit for a log line
	 * @return the tools in the server's order
	 * @throws ToolListingException if the listing broke a limit
	 */
	public static List<Tool> listAll(Function<@Nullable String, Mono<ListToolsResult>> source, String server,
			Duration timeout, UnaryOperator<String> loggable) {
		long deadline = System.nanoTime() + timeout.toNanos();
		Map<String, Tool> tools = new LinkedHashMap<>();
		Set<String> duplicates = new LinkedHashSet<>();
		Set<String> cursors = new HashSet<>();
		String cursor = null;
		long listed = 0;
		for (int pages = 1;; pages++) {
			ListToolsResult page = page(source, cursor, deadline, timeout);
			for (Tool tool : (page.tools() != null) ? page.tools() : List.<Tool>of()) {
				listed = requireWithinListingLimit(listed + json(tool).length);
				String oversized = oversized(tool);
				if (oversized != null) {
					logger.warn("MCP server '" + server + "': tool '" + loggable.apply(tool.name()) + "' is left out: "
							+ oversized);
					continue;
				}
				if (tools.putIfAbsent(tool.name(), tool) != null) {
					duplicates.add(tool.name());
				}
				if (tools.size() > MAX_TOOLS) {
					throw new ToolListingException("the server listed more than " + MAX_TOOLS + " tools (the limit)");
				}
			}
			cursor = page.nextCursor();
			if (cursor == null || cursor.isEmpty()) {
				break;
			}
			listed = requireWithinListingLimit(listed + cursor.length());
			if (!cursors.add(cursor)) {
				throw new ToolListingException(
						"tools/list repeated the cursor '" + shown(cursor) + "' (its pages cycle)");
			}
			if (pages == MAX_PAGES) {
				throw new ToolListingException("tools/list returned more than " + MAX_PAGES + " pages (the limit)");
			}
		}
		if (!duplicates.isEmpty()) {
			logger.warn("MCP server '" + server + "' listed tool(s) " + loggable.apply(duplicates.toString())
					+ " more than once; each keeps its first definition");
		}
		return List.copyOf(tools.values());
	}

	private static ListToolsResult page(Function<@Nullable String, Mono<ListToolsResult>> pages,
			@Nullable String cursor, long deadline, Duration timeout) {
		long remaining = deadline - System.nanoTime();
		if (remaining > 0) {
			try {
				return SdkClients.requireResult(
						RequestScope
							.scoped(pages.apply(cursor).timeout(Duration.ofNanos(remaining)),
									"timed out after " + timeout.toMillis() + " ms")
							.block());
			}
			catch (RuntimeException ex) {
				if (CauseChain.cause(ex, TimeoutException.class) == null || deadline - System.nanoTime() > 0) {
					throw ex;
				}
			}
		}
		throw new ToolListingException(
				"listing the tools took longer than the request timeout (" + timeout.toMillis() + " ms)");
	}

	/**
	 * Tells why a tool's name cannot be offered to a model.
	 * @param name the name the server listed
	 * @return why not, or {@code null} when it can
	 */
	public static @Nullable String unusableName(String name) {
		return BoundedAnswerTransport.unusable(name);
	}

	private static long requireWithinListingLimit(long listed) {
		if (listed > MAX_LISTING_BYTES) {
			throw new ToolListingException(
					"the tool listing is larger than " + size(MAX_LISTING_BYTES) + " (the limit), cursors included");
		}
		return listed;
	}

	// Why a tool is too large to be kept, or null when it is not.
	private static @Nullable String oversized(Tool tool) {
		String description = tool.description();
		if (description != null && (long) description.length() * 3 > MAX_DESCRIPTION_BYTES) {
			int bytes = description.getBytes(StandardCharsets.UTF_8).length;
			if (bytes > MAX_DESCRIPTION_BYTES) {
				return "its description is " + size(bytes) + " (limit " + size(MAX_DESCRIPTION_BYTES) + ")";
			}
		}
		int input = (tool.inputSchema() != null) ? json(tool.inputSchema()).length : 0;
		if (input > MAX_SCHEMA_BYTES) {
			return "its input schema is " + size(input) + " (limit " + size(MAX_SCHEMA_BYTES) + ")";
		}
		int output = (tool.outputSchema() != null) ? json(tool.outputSchema()).length : 0;
		if (output > MAX_SCHEMA_BYTES) {
			return "its output schema is " + size(output) + " (limit " + size(MAX_SCHEMA_BYTES) + ")";
		}
		return null;
	}

	private static byte[] json(Object value) {
		try {
			return McpJsonDefaults.getMapper().writeValueAsBytes(value);
		}
		catch (IOException ex) {
			throw new ToolListingException("a tool of the listing cannot be written as JSON: " + ex.getMessage());
		}
	}

	private static String size(long bytes) {
		return (bytes >= KB * KB) ? Math.round((double) bytes / (KB * KB)) + " MB"
				: Math.round((double) bytes / KB) + " KB";
	}

	private static String shown(String cursor) {
		return (cursor.length() > MAX_CURSOR_SHOWN) ? cursor.substring(0, MAX_CURSOR_SHOWN) + "…" : cursor;
	}

	/**
	 * A listing broke one of the limits: the server answered, but what it answered cannot
	 * be used.
	 */
	public static final class ToolListingException extends IllegalStateException {

		private static final long serialVersionUID = 1L;

		ToolListingException(String message) {
			super(message);
		}

	}

}
