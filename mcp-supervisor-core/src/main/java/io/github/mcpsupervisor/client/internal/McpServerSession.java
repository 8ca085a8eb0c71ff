package io.github.mcpsupervisor.client.internal;

import java.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.internal.ServerText;
import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.Root;
import io.modelcontextprotocol.spec.McpSchema.SubscribeRequest;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What the application asked of one server that outlives its generations: the roots it
 * offers, the resources it subscribed to and the bounds of its sampling requests. Every
 * new generation is given them again, before it is up.
 *
 * @since 0.1.0
 */
public final class McpServerSession {

	private static final Log logger = LogFactory.getLog(McpServerSession.class);

	private final String server;

	private volatile List<Root> roots;

	private final Set<String> subscriptions = new CopyOnWriteArraySet<>();

	private final SamplingGate sampling;

	private final RequestGate elicitation;

	private final @Nullable LoggingLevel logLevel;

	/**
	 * Creates the session of a server whose sampling requests have the
	 * {@link SamplingLimits#DEFAULT default bounds}.
	 * @param server the server's name
	 * @param roots the roots offered to it
	 */
	public McpServerSession(String server, List<Root> roots) {
		this(server, roots, new SamplingGate(server, SamplingLimits.DEFAULT, Clock.systemUTC()));
	}

	/**
	 * Creates the session of a server.
	 * @param server the server's name
	 * @param roots the roots offered to it
	 * @param sampling admits its sampling requests
	 */
	public McpServerSession(String server, List<Root> roots, SamplingGate sampling) {
		this(server, roots, sampling, null);
	}

	/**
	 * Creates the session of a server that is asked for its log messages.
	 * @param server the server's name
	 * @param roots the roots offered to it
	 * @param sampling admits its sampling requests
	 * @param logLevel the lowest level of the log messages it is asked to send, or
	 * {@code null} to leave that to the server (2025-11-25) or ask for none (2026-07-28)
	 */
	public McpServerSession(String server, List<Root> roots, SamplingGate sampling, @Nullable LoggingLevel logLevel) {
		this(server, roots, sampling, RequestGate.elicitation(server, ElicitationLimits.DEFAULT, Clock.systemUTC()),
				logLevel);
	}

	/**
	 * Creates the session of a server that is asked for its log messages, with the bounds
	 * of its elicitations.
	 * @param server the server's name
	 * @param roots the roots offered to it
	 * @param sampling admits its sampling requests
	 * @param elicitation admits its elicitation requests
	 * @param logLevel the lowest level of the log messages it is asked to send, or
	 * {@code null} to leave that to the server (2025-11-25) or ask for none (2026-07-28)
	 */
	public McpServerSession(String server, List<Root> roots, SamplingGate sampling, RequestGate elicitation,
			@Nullable LoggingLevel logLevel) {
		this.server = server;
		this.roots = List.copyOf(roots);
		this.sampling = sampling;
		this.elicitation = elicitation;
		this.logLevel = logLevel;
	}

	public String server() {
		return this.server;
	}

	/**
	 * Returns the lowest level of the log messages the server is asked to send.
	 * @return the level, or {@code null} when it is asked for none
	 */
	public @Nullable LoggingLevel logLevel() {
		return this.logLevel;
	}

	/**
	 * Returns what admits the server's sampling requests, whatever handler answers them.
	 * @return the gate
	 */
	public SamplingGate sampling() {
		return this.sampling;
	}

	/**
	 * Returns what admits the server's elicitation requests, whatever handler answers
	 * them.
	 * @return the gate
	 */
	public RequestGate elicitation() {
		return this.elicitation;
	}

	/**
	 * Returns the roots offered to the server.
	 * @return the roots
	 */
	public List<Root> roots() {
		return this.roots;
	}

	/**
	 * Sets the roots offered to the server from now on.
	 * @param roots the roots
	 */
	public void roots(List<Root> roots) {
		this.roots = List.copyOf(roots);
	}

	/**
	 * Returns the resources subscribed to, in the order of subscription.
	 * @return their URIs
	 */
	public Set<String> subscriptions() {
		return Collections.unmodifiableSet(new LinkedHashSet<>(this.subscriptions));
	}

	/**
	 * Adds a resource to the subscriptions.
	 * @param uri the resource's URI
	 * @return whether it was not subscribed to yet
	 */
	public boolean subscribe(String uri) {
		return this.subscriptions.add(uri);
	}

	/**
	 * Removes a resource from the subscriptions.
	 * @param uri the resource's URI
	 * @return whether it was subscribed to
	 */
	public boolean unsubscribe(String uri) {
		return this.subscriptions.remove(uri);
	}

	/**
	 * Asks the new generation of a 2025-11-25 server for its log messages from the
	 * session's level on ({@code logging/setLevel}), when the session has one and the
	 * server offers logging; a refusal, or no answer within the timeout, is logged and
	 * the generation goes on.
	 * @param client the initialized client of the new generation
	 * @param timeout how long the request may take
	 * @param scoped puts the request in a scope of its own
	 * @param redaction masks the configuration's secrets in the server's text
	 */
	@SuppressWarnings("deprecation") // 2026-07-28 deprecates logging/setLevel; 2025-11-25
										// has it
	public void askForLogs(McpAsyncClient client, Duration timeout, UnaryOperator<Mono<?>> scoped,
			UnaryOperator<String> redaction) {
		LoggingLevel level = this.logLevel;
		if (level == null) {
			return;
		}
		if (client.getServerCapabilities() == null || client.getServerCapabilities().logging() == null) {
			logger.debug("MCP server '" + this.server + "' offers no logging: no log level set");
			return;
		}
		try {
			scoped.apply(client.setLoggingLevel(level)).block(timeout);
		}
		catch (RuntimeException ex) {
			logger.warn("MCP server '" + this.server + "' did not take log level " + level + ": "
					+ ServerText.forLog(redaction.apply(String.valueOf(ex.getMessage()))));
		}
	}

	/**
	 * Subscribes a new generation's client to every resource subscribed to so far, all at
	 * once and within the timeout; those left unanswered then are cancelled. A
	 * subscription the server refuses is logged and kept: the next generation is asked
	 * again.
	 * @param client the initialized client of the new generation
	 * @param timeout how long all subscriptions may take together
	 * @param scoped puts the subscriptions in a scope of their own, so that those left
	 * unanswered when they end are cancelled
	 */
	public void restore(McpAsyncClient client, Duration timeout, UnaryOperator<Mono<?>> scoped) {
		Set<String> uris = subscriptions();
		if (uris.isEmpty()) {
			return;
		}
		if (client.getServerCapabilities() == null || client.getServerCapabilities().resources() == null
				|| !Boolean.TRUE.equals(client.getServerCapabilities().resources().subscribe())) {
			logger.warn("MCP server '" + this.server + "' no longer offers resource subscriptions: " + uris.size()
					+ " subscription(s) not re-established");
			return;
		}
		try {
			Mono<Void> subscriptions = Flux.fromIterable(uris)
				.flatMap(
						(uri) -> client.subscribeResource(SubscribeRequest.builder(uri).build()).onErrorResume((ex) -> {
							logger.warn("MCP server '" + this.server + "' refused the subscription to resource '" + uri
									+ "': " + ServerText.forLog(String.valueOf(ex.getMessage())));
							return Mono.empty();
						}))
				.then();
			scoped.apply(subscriptions).block(timeout);
			logger
				.debug("MCP server '" + this.server + "': " + uris.size() + " resource subscription(s) re-established");
		}
		catch (RuntimeException ex) {
			logger.warn("MCP server '" + this.server + "': re-establishing " + uris.size()
					+ " resource subscription(s) failed: " + ServerText.forLog(String.valueOf(ex.getMessage())));
		}
	}

}
