package io.github.mcpsupervisor.client;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.github.mcpsupervisor.client.internal.McpServerSession;
import io.github.mcpsupervisor.client.internal.Pages;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpServerUnavailableException;
import io.modelcontextprotocol.spec.McpSchema.CompleteRequest;
import io.modelcontextprotocol.spec.McpSchema.CompleteResult;
import io.modelcontextprotocol.spec.McpSchema.GetPromptResult;
import io.modelcontextprotocol.spec.McpSchema.Prompt;
import io.modelcontextprotocol.spec.McpSchema.ReadResourceResult;
import io.modelcontextprotocol.spec.McpSchema.Resource;
import io.modelcontextprotocol.spec.McpSchema.ResourceTemplate;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import reactor.core.publisher.Mono;

/**
 * The client of one supervised server for everything but its tools: resources and their
 * templates, prompts, completions, resource subscriptions and roots, in the types of
 * revision 2025-11-25 whichever revision the server speaks. It holds no SDK client: every
 * request goes to the server's live generation, in that generation's revision, with the
 * rules of a retry-eligible tool call (it waits while the server recovers, and runs once
 * more when its generation is lost under it), so that it keeps working across restarts.
 * The resources it subscribes to are subscribed to again on every new generation before
 * that generation is up: with {@code resources/subscribe} in revision 2025-11-25, as the
 * filter of the generation's {@code subscriptions/listen} stream in revision 2026-07-28.
 *
 * <p>
 * A request for a capability the server did not declare fails with a
 * {@link McpCapabilityException} naming it; a server that is not up and does not recover
 * in time, with a {@link McpServerUnavailableException}; an error answered by the server,
 * with the SDK's {@code McpError}.
 *
 * @since 0.1.0
 */
public final class McpServerClient {

	private static final Log logger = LogFactory.getLog(McpServerClient.class);

	private final McpServerSupervisor supervisor;

	private final McpServerSession session;

	// the lock of each resource a subscribe or unsubscribe runs for, with how many hold
	// or wait for it: released by the last one
	private final Map<String, AtomicInteger> subscriptionLocks = new ConcurrentHashMap<>();

	/**
	 * Creates the client of a server.
	 * @param supervisor the server's supervisor
	 * @param session the server's client session
	 */
	public McpServerClient(McpServerSupervisor supervisor, McpServerSession session) {
		this.supervisor = supervisor;
		this.session = session;
	}

	public String name() {
		return this.supervisor.name();
	}

	McpServerSupervisor supervisor() {
		return this.supervisor;
	}

	/**
	 * Lists every resource of the server, following pagination within limits.
	 * @return the resources
	 */
	public List<Resource> listResources() {
		return send("resources/list", "resources", ServerCapabilities::resources, (requests) -> Pages.all(name(),
				"resources", requests::listResources, (page) -> page.resources(), (page) -> page.nextCursor()));
	}

	/**
	 * Lists every resource template of the server, following pagination within limits.
	 * @return the resource templates
	 */
	public List<ResourceTemplate> listResourceTemplates() {
		return send("resources/templates/list", "resources", ServerCapabilities::resources,
				(requests) -> Pages.all(name(), "resource templates", requests::listResourceTemplates,
						(page) -> page.resourceTemplates(), (page) -> page.nextCursor()));
	}

	/**
	 * Reads a resource.
	 * @param uri the resource's URI
	 * @return its contents
	 */
	public ReadResourceResult readResource(String uri) {
		return send("resources/read", "resources", ServerCapabilities::resources,
				(requests) -> requests.readResource(uri));
	}

	/**
	 * Subscribes to a resource, on the live generation and on every new one:
	 * {@code notifications/resources/updated} for it reach the application as
	 * {@code McpResourcesUpdatedEvent}s (and the SDK consumers of customizations).
	 * @param uri the resource's URI
	 */
	public void subscribe(String uri) {
		locked(uri, () -> {
			boolean added = this.session.subscribe(uri);
			try {
				send("resources/subscribe", "resource subscriptions", ServerCapabilities::resources,
						(requests) -> requireSubscribe(requests).then(requests.subscribe(uri)));
			}
			catch (RuntimeException ex) {
				if (added) {
					this.session.unsubscribe(uri);
				}
				throw ex;
			}
		});
	}

	/**
	 * Ends a subscription: the live generation is told, new ones are not subscribed
	 * again.
	 * @param uri the resource's URI
	 */
	public void unsubscribe(String uri) {
		locked(uri, () -> {
			if (this.session.unsubscribe(uri)) {
				send("resources/unsubscribe", "resource subscriptions", ServerCapabilities::resources,
						(requests) -> requests.unsubscribe(uri));
			}
		});
	}

	// The subscribes and unsubscribes of one resource run one at a time, its record and
	// its request together: a failed subscribe can only take back the record it made,
	// and the server hears them in the order the record took them. The lock lives while
	// one of them holds or waits for it, so that the resources ever named cost nothing.
	private void locked(String uri, Runnable action) {
		AtomicInteger lock = this.subscriptionLocks.compute(uri, (key, users) -> {
			AtomicInteger current = (users != null) ? users : new AtomicInteger();
			current.incrementAndGet();
			return current;
		});
		try {
			synchronized (lock) {
				action.run();
			}
		}
		finally {
			this.subscriptionLocks.computeIfPresent(uri, (key, users) -> (users.decrementAndGet() == 0) ? null : users);
		}
	}

	int subscriptionLocks() {
		return this.subscriptionLocks.size();
	}

	/**
	 * Returns the resources subscribed to through this client.
	 * @return their URIs
	 */
	public Set<String> subscriptions() {
		return this.session.subscriptions();
	}

	/**
	 * Lists every prompt of the server, following pagination within limits.
	 * @return the prompts
	 */
	public List<Prompt> listPrompts() {
		return send("prompts/list", "prompts", ServerCapabilities::prompts, (requests) -> Pages.all(name(), "prompts",
				requests::listPrompts, (page) -> page.prompts(), (page) -> page.nextCursor()));
	}

	/**
	 * Gets a prompt.
	 * @param name the prompt's name
	 * @param arguments its arguments
	 * @return the prompt's messages
	 */
	public GetPromptResult getPrompt(String name, Map<String, Object> arguments) {
		return send("prompts/get", "prompts", ServerCapabilities::prompts,
				(requests) -> requests.getPrompt(name, arguments));
	}

	/**
	 * Asks the server to complete an argument of a prompt or a resource template.
	 * @param request the completion request
	 * @return the completions
	 */
	public CompleteResult complete(CompleteRequest request) {
		return send("completion/complete", "completions", ServerCapabilities::completions,
				(requests) -> requests.complete(request));
	}

	/**
	 * Returns the roots offered to the server.
	 * @return the roots
	 */
	public List<Root> roots() {
		return this.session.roots();
	}

	/**
	 * Replaces the roots offered to the server. Every new generation of revision
	 * 2025-11-25 is offered them; the live generation is sent
	 * {@code notifications/roots/list_changed} when it declared the roots capability,
	 * which a generation does when it started with roots. A server of revision 2026-07-28
	 * asks for roots as an input request when it needs them: from now on it is answered
	 * with these (and the roots capability is declared while there are some).
	 * @param roots the roots, usually {@code file://} URIs
	 */
	public synchronized void setRoots(List<Root> roots) {
		List<Root> previous = this.session.roots();
		this.session.roots(roots);
		if (this.supervisor.state() != McpServerState.UP || this.supervisor.tools().session() == null) {
			return; // the next generation is offered them
		}
		Boolean told = this.supervisor.send("notifications/roots/list_changed",
				(requests) -> requests.changeRoots(previous, roots));
		if (Boolean.FALSE.equals(told)) {
			logger.info("MCP server '" + name() + "': its generation started without roots; the new roots are"
					+ " offered from the next generation on");
		}
	}

	private Mono<Void> requireSubscribe(McpServerRequests requests) {
		ServerCapabilities capabilities = requests.serverCapabilities();
		boolean offered = capabilities != null && capabilities.resources() != null
				&& Boolean.TRUE.equals(capabilities.resources().subscribe());
		return offered ? Mono.empty() : Mono.error(new McpCapabilityException(name(), "resource subscriptions"));
	}

	// Sends a request once the live generation's server is known to offer the
	// capability.
	private <T> T send(String method, String capability, Function<ServerCapabilities, ?> declared,
			Function<McpServerRequests, Mono<T>> request) {
		return this.supervisor.send(method, (requests) -> {
			ServerCapabilities capabilities = requests.serverCapabilities();
			if (capabilities == null || declared.apply(capabilities) == null) {
				return Mono.error(new McpCapabilityException(name(), capability));
			}
			return request.apply(requests);
		});
	}

}
