package io.github.mcpsupervisor.demo;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceSpecification;
import io.modelcontextprotocol.server.McpServerFeatures.SyncResourceTemplateSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.ResourcesUpdatedNotification;
import io.modelcontextprotocol.spec.McpSchema.TextResourceContents;

/**
 * The demo server's resources: a fixed text ({@value #README}), a greeting per name
 * ({@value #GREETING_TEMPLATE}) and the number of those read so far ({@value #READS}),
 * whose subscribers are notified on every read of the others.
 */
final class DemoResources {

	/** The URI of the fixed text about this server. */
	static final String README = "demo://readme";

	/** The URI of the number of resources read, other than itself. */
	static final String READS = "demo://reads";

	/** The URI template of the greetings. */
	static final String GREETING_TEMPLATE = "demo://greetings/{name}";

	private static final String GREETINGS = "demo://greetings/";

	private static final String README_TEXT = "The demo MCP server of mcp-supervisor: tools that make supervision"
			+ " visible (echo, add, crash, slow...), these resources and two prompts.";

	private static final String TEXT = "text/plain";

	private final AtomicLong reads = new AtomicLong();

	private final AtomicReference<McpSyncServer> server;

	DemoResources(AtomicReference<McpSyncServer> server) {
		this.server = server;
	}

	List<SyncResourceSpecification> resources() {
		Resource readme = Resource.builder(README, "readme")
			.title("About this server")
			.description("A fixed text about this server")
			.mimeType(TEXT)
			.build();
		Resource reads = Resource.builder(READS, "reads")
			.title("Resources read")
			.description("How many other resources this server has read; subscribers are notified on every read")
			.mimeType(TEXT)
			.build();
		return List.of(new SyncResourceSpecification(readme, (exchange, request) -> read(README, README_TEXT)),
				new SyncResourceSpecification(reads,
						(exchange, request) -> contents(READS, String.valueOf(this.reads.get()))));
	}

	List<SyncResourceTemplateSpecification> templates() {
		ResourceTemplate greeting = ResourceTemplate.builder(GREETING_TEMPLATE, "greeting")
			.title("Greeting")
			.description("A greeting for the name at the end of the URI")
			.mimeType(TEXT)
			.build();
		return List.of(new SyncResourceTemplateSpecification(greeting, (exchange, request) -> read(request.uri(),
				"Hello, " + request.uri().substring(GREETINGS.length()) + "!")));
	}

	// Counts the read and tells the subscribers of the count.
	private ReadResourceResult read(String uri, String text) {
		this.reads.incrementAndGet();
		this.server.get().notifyResourcesUpdated(new ResourcesUpdatedNotification(READS));
		return contents(uri, text);
	}

	private static ReadResourceResult contents(String uri, String text) {
		return ReadResourceResult.builder(List.of(TextResourceContents.builder(uri, text).mimeType(TEXT).build()))
			.build();
	}

}
