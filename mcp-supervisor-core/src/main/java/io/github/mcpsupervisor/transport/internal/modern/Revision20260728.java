package io.github.mcpsupervisor.transport.internal.modern;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.UnaryOperator;

import io.github.mcpsupervisor.client.internal.ClientSpecs;
import io.github.mcpsupervisor.client.internal.ListChanges;
import io.github.mcpsupervisor.internal.Caller;
import io.github.mcpsupervisor.internal.CauseChain;
import io.github.mcpsupervisor.supervisor.McpCapabilityException;
import io.github.mcpsupervisor.supervisor.McpConnector.McpServerRequests;
import io.github.mcpsupervisor.supervisor.ToolSet.SessionInfo;
import io.github.mcpsupervisor.transport.internal.CallTimeouts;
import io.github.mcpsupervisor.transport.internal.ClientSetup;
import io.github.mcpsupervisor.transport.internal.GenerationLife;
import io.github.mcpsupervisor.transport.internal.RevisionClient;
import io.github.mcpsupervisor.transport.internal.Revisions;
import io.github.mcpsupervisor.transport.internal.ToolListing;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpException;
import io.modelcontextprotocol.modern.McpSchema.DiscoverResult;
import io.modelcontextprotocol.modern.client.McpAsyncClient;
import io.modelcontextprotocol.modern.client.McpClient;
import io.modelcontextprotocol.modern.client.McpTimeoutException;
import io.modelcontextprotocol.modern.client.transport.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpSchema.CallToolRequest;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ListToolsResult;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import io.modelcontextprotocol.spec.McpSchema.Tool;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

/**
 * The client of one generation in MCP revision 2026-07-28, over the SDK's modern client:
 * discovered with {@code server/discover} (there is no initialize and no session), its
 * tools listed page by page within the limits of {@link ToolListing}, its tool, resource
 * and prompt list changes and the application's resource subscriptions followed on one
 * {@code subscriptions/listen} stream, its resources, prompts and completions sent as
 * {@link McpServerRequests}, its liveness probed with a bounded {@code server/discover}
 * (there is no ping).
 *
 * @since 0.1.0
 */
public final class Revision20260728 implements RevisionClient {

	private static final Log logger = LogFactory.getLog(Revision20260728.class);

	private static final byte[] LOG_MESSAGE_METHOD = ("\"" + RequestEnvelope.LOG_MESSAGE + "\"")
		.getBytes(StandardCharsets.UTF_8);

	/** The shortest time between two re-listings that a listing's ttlMs asks for. */
	static final Duration MIN_RELISTING_INTERVAL = Duration.ofSeconds(10);

	/** The longest time a listing's ttlMs keeps it before it is listed again. */
	static final Duration MAX_RELISTING_INTERVAL = Duration.ofDays(1);

	private final GenerationLife life;

	private final ClientSetup setup;

	private final ModernSchema schema;

	private final Duration requestTimeout;

	private final McpJsonMapper jsonMapper;

	// how the application answers input requests, known once the server is known to
	// speak this revision
	private volatile @Nullable InputAnswers answers;

	private volatile @Nullable McpAsyncClient client;

	private volatile @Nullable DiscoverResult discovered;

	private volatile @Nullable McpClientTransport transport;

	private volatile List<Tool> tools = List.of();

	// the tools as the server listed them, by name: a call carries its tool so that the
	// client mirrors its x-mcp-header parameters
	private volatile Map<String, io.modelcontextprotocol.modern.McpSchema.Tool> listed = Map.of();

	private volatile @Nullable Listening listening;

	private volatile @Nullable ModernRequests requests;

	// the re-listing when the listing's ttlMs runs out, for a server that announces no
	// changes
	private volatile @Nullable Disposable relisting;

	// the ttlMs of the last listing's first page, if it gave one
	private volatile @Nullable Long listingTtl;

	private volatile boolean followsChanges;

	/**
	 * Creates the client of a generation, not yet connected.
	 * @param life the generation's life
	 * @param setup how the server's generations build their clients
	 * @param jsonMapper reads and writes the messages
	 */
	public Revision20260728(GenerationLife life, ClientSetup setup, McpJsonMapper jsonMapper) {
		this.life = life;
		this.setup = setup;
		this.schema = new ModernSchema(jsonMapper);
		this.requestTimeout = setup.timeouts().requestTimeout();
		this.jsonMapper = jsonMapper;
	}

	/**
	 * Builds the client of the generation over the transport that its carrier's binding
	 * built.
	 * @param transport the transport
	 */
	public void connect(McpClientTransport transport) {
		LoggingLevel level = this.setup.session().logLevel();
		RequestEnvelope enveloped = new RequestEnvelope(transport, this.jsonMapper, this::declaredCapabilities,
				(level != null) ? level.name().toLowerCase(Locale.ROOT) : null, this::logged);
		this.transport = enveloped;
		this.client = newClient(enveloped);
	}

	@Override
	public String revision() {
		return Revisions.V2026_07_28;
	}

	@Override
	public String handshake() {
		return "discovery";
	}

	/**
	 * Takes a message of the server if it is a log message: over stdio a server's log
	 * messages say no request they belong to, and the SDK's transport drops them.
	 * @param message one JSON-RPC message as the server wrote it
	 * @return whether it was a log message, now taken
	 */
	public boolean takeLogMessage(byte[] message) {
		if (!contains(message, LOG_MESSAGE_METHOD)) {
			return false;
		}
		try {
			Map<?, ?> read = this.jsonMapper.readValue(message, Map.class);
			if (read == null || !RequestEnvelope.LOG_MESSAGE.equals(read.get("method")) || read.containsKey("id")) {
				return false;
			}
			logged(this.jsonMapper.convertValue(read.get("params"), McpSchema.LoggingMessageNotification.class));
		}
		catch (IOException | RuntimeException ex) {
			logger.debug("MCP server '" + this.life.server() + "': a log message that is not one was dropped", ex);
		}
		return true;
	}

	private static boolean contains(byte[] message, byte[] part) {
		outer: for (int i = 0; i <= message.length - part.length; i++) {
			for (int j = 0; j < part.length; j++) {
				if (message[i + j] != part[j]) {
					continue outer;
				}
			}
			return true;
		}
		return false;
	}

	// Only what was asked for reaches the handlers: a server may send more, or send
	// messages unasked.
	private void logged(McpSchema.LoggingMessageNotification notification) {
		LoggingLevel wanted = this.setup.session().logLevel();
		if (wanted == null || notification.level() == null || notification.level().level() < wanted.level()) {
			return;
		}
		this.setup.factory().logged(this.setup.session(), notification);
	}

	// The capabilities of the input requests the application answers: none before the
	// server is known to speak this revision.
	private Map<String, Object> declaredCapabilities() {
		InputAnswers current = this.answers;
		return (current != null) ? current.capabilities() : Map.of();
	}

	// The client answers no input request itself: InputRounds does, with the
	// application's handlers. It bounds each round of a request; the whole of one is
	// bounded where it is awaited.
	private McpAsyncClient newClient(McpClientTransport transport) {
		McpSchema.Implementation info = ClientSpecs.clientInfo(this.life.server());
		return McpClient.async(transport)
			.clientInfo(new io.modelcontextprotocol.modern.McpSchema.Implementation(info.name(), info.title(),
					info.version(), null, null, null))
			.jsonMapper(this.jsonMapper)
			.roundTimeout(this.requestTimeout)
			.build();
	}

	/**
	 * Discovers the server, lists its tools and starts following what the supervisor and
	 * the application follow on it (see {@link Listening}).
	 * @throws NotModernException if the server did not answer as a 2026-07-28 server
	 * @throws UnsupportedRevisionException if it speaks only other revisions
	 */
	@Override
	public void open(Consumer<Throwable> streamFailed) {
		McpAsyncClient created = this.life.require(this.client);
		DiscoverResult result = Discovery.discover(created, this.setup.initializationTimeout());
		this.discovered = result;
		// the application's handlers are looked up only for a server of this revision: a
		// probe of another revision's server costs them nothing
		this.answers = new InputAnswers(this.life.server(), this.setup.factory().handlers(this.setup.session()),
				this.setup.session(), this.schema);
		boolean offersTools = result.capabilities() != null && result.capabilities().tools() != null;
		this.tools = offersTools ? list(created) : List.of();
		this.followsChanges = offersTools && Boolean.TRUE.equals(result.capabilities().tools().listChanged());
		listen(created, result, streamFailed);
		if (!this.followsChanges) {
			relistWhenStale();
		}
	}

	// A server that announces no changes may say how long its listing holds (ttlMs): it
	// is listed again then, through the supervisor as an announced change is, never more
	// often than every MIN_RELISTING_INTERVAL.
	private void relistWhenStale() {
		Long ttl = this.listingTtl;
		if (this.followsChanges || ttl == null || ttl <= 0 || this.life.isLost()) {
			return;
		}
		// a server may say "forever" with the largest number it knows: a day is as good
		Duration after = Duration
			.ofMillis(Math.min(Math.max(ttl, MIN_RELISTING_INTERVAL.toMillis()), MAX_RELISTING_INTERVAL.toMillis()));
		Disposable previous = this.relisting;
		if (previous != null) {
			previous.dispose();
		}
		this.relisting = Mono.delay(after).subscribe((tick) -> {
			if (!this.life.isLost()) {
				this.setup.toolsChanged().run();
			}
		});
	}

	private List<Tool> list(McpAsyncClient created) {
		Map<String, io.modelcontextprotocol.modern.McpSchema.Tool> byName = new LinkedHashMap<>();
		List<Tool> usable = ToolListing.listAll((cursor) -> page(created, cursor, byName), this.life.server(),
				this.requestTimeout, this.life::loggable);
		this.listed = Map.copyOf(byName);
		return usable;
	}

	private Mono<ListToolsResult> page(McpAsyncClient created, @Nullable String cursor,
			Map<String, io.modelcontextprotocol.modern.McpSchema.Tool> byName) {
		var request = created.tools();
		if (cursor != null) {
			request = request.cursor(cursor);
		}
		return request.list().onErrorMap(McpException.class, this::answered).map((page) -> {
			if (cursor == null) {
				this.listingTtl = page.ttlMs();
			}
			List<Tool> kept = new ArrayList<>();
			for (var tool : (page.tools() != null) ? page.tools()
					: List.<io.modelcontextprotocol.modern.McpSchema.Tool>of()) {
				String unusable = (tool.name() != null) ? ToolListing.unusableName(tool.name()) : "it has no name";
				if (unusable != null) {
					logger.warn("MCP server '" + this.life.server() + "': a tool is left out: " + unusable);
					continue;
				}
				byName.putIfAbsent(tool.name(), tool);
				kept.add(this.schema.convert(tool, Tool.class));
			}
			return new ListToolsResult(kept, page.nextCursor(), null);
		});
	}

	// Opens the generation's one listen stream for the life of the generation (a new
	// generation opens its own) and, as a 2025-11-25 generation subscribes again before
	// it is up, waits for the server to acknowledge the application's subscriptions.
	private void listen(McpAsyncClient created, DiscoverResult result, Consumer<Throwable> streamFailed) {
		ListChanges listChanges = new ListChanges(this.setup.factory(), this.setup.session(), this.requestTimeout,
				() -> !this.life.isLost(), UnaryOperator.identity());
		Listening opened = new Listening(this.life.server(), this.life.number(), created, result.capabilities(),
				this.setup.session(), this.setup.toolsChanged(), streamFailed, listChanges, () -> !this.life.isLost());
		ModernRequests sent = new ModernRequests(this.life.server(), created, this.schema,
				this.schema.initializeResult(result).capabilities(), opened, requireAnswers());
		opened.readWith(sent);
		this.listening = opened;
		this.requests = sent;
		int subscriptions = this.setup.session().subscriptions().size();
		Mono<?> acknowledged = opened.reopen();
		if (subscriptions == 0) {
			return;
		}
		try {
			acknowledged.block(this.requestTimeout);
			logger.debug("MCP server '" + this.life.server() + "': " + subscriptions
					+ " resource subscription(s) re-established on generation " + this.life.number());
		}
		catch (RuntimeException ex) {
			logger.warn("MCP server '" + this.life.server() + "': re-establishing " + subscriptions
					+ " resource subscription(s) failed: " + this.life.loggable(CauseChain.rootMessage(ex)));
		}
	}

	private RuntimeException answered(McpException ex) {
		return ModernSchema.answered(ex, this.life::redact);
	}

	@Override
	public List<Tool> tools() {
		return this.tools;
	}

	// a listing that says nothing holds for no time at all (the revision's caching)
	@Override
	public Duration toolsFreshFor() {
		Long ttl = this.listingTtl;
		return Duration.ofMillis((ttl != null) ? Math.max(0, ttl) : 0);
	}

	@Override
	public List<Tool> listTools() {
		List<Tool> relisted = list(this.life.require(this.client));
		this.tools = relisted;
		relistWhenStale();
		return relisted;
	}

	@Override
	public CallToolResult callTool(CallToolRequest request) {
		McpAsyncClient current = this.life.require(this.client);
		// Each round is bounded by the client's round timer, given the tool's own timeout
		// when it has one; the whole call, which may take several rounds of input
		// requests, by the wait for its result, as the SDK's sync client bounds it: no
		// timer of its own (a schedule and a cancel on the timer threads, every call).
		Duration timeout = this.setup.timeouts().of(request.name());
		boolean ownTimeout = !timeout.equals(this.requestTimeout);
		try {
			var tool = this.listed.get(request.name());
			Map<String, Object> arguments = (request.arguments() != null) ? request.arguments() : Map.of();
			var rounds = InputRounds.complete(this.life.server(), "tools/call", requireAnswers(), (round) -> {
				var call = ((tool != null) ? current.tool(tool) : current.tool(request.name())).arguments(arguments);
				if (request.meta() != null) {
					call = call.meta(request.meta());
				}
				if (!round.responses().isEmpty()) {
					call = call.inputResponses(round.responses());
				}
				if (round.state() != null) {
					call = call.requestState(round.state());
				}
				return (ownTimeout) ? call.roundTimeout(timeout).callOnce() : call.callOnce();
			}, io.modelcontextprotocol.modern.McpSchema.CallToolResult.class);
			var result = rounds.contextWrite(Caller.carried()).block(timeout);
			if (result == null) {
				throw new IllegalStateException("the MCP server sent no result");
			}
			return this.schema.callToolResult(result);
		}
		catch (McpException ex) {
			throw answered(ex); // the server answered
		}
		catch (McpError ex) {
			throw ex; // an input request the application could not answer
		}
		catch (RuntimeException ex) {
			if (Discovery.isBlockTimeout(ex) || CauseChain.cause(ex, McpTimeoutException.class) != null
					|| CauseChain.cause(ex, TimeoutException.class) != null) {
				// the wait for the call, or the client's round timer, which ends no later
				RuntimeException failure = CallTimeouts.timedOut(this.life.server(), "tool '" + request.name() + "'",
						timeout);
				failure.addSuppressed(ex);
				throw failure;
			}
			throw ex;
		}
	}

	private InputAnswers requireAnswers() {
		InputAnswers current = this.answers;
		if (current == null) {
			throw new IllegalStateException("generation " + this.life.number() + " of MCP server '" + this.life.server()
					+ "' is not discovered");
		}
		return current;
	}

	/**
	 * Refuses a request written for the 2025-11-25 client, which this generation does not
	 * have.
	 */
	@Override
	public <T> @Nullable T request(String method,
			Function<io.modelcontextprotocol.client.McpAsyncClient, Mono<T>> request) {
		throw new UnsupportedOperationException("MCP server '" + this.life.server() + "' speaks MCP "
				+ Revisions.V2026_07_28 + ": its generation has no " + Revisions.V2025_11_25 + " client for '" + method
				+ "'; McpServerSupervisor.send sends requests in either revision");
	}

	/**
	 * Sends the request on the modern client: resources, prompts and completions as their
	 * 2026-07-28 requests, subscriptions as the filter of the generation's listen stream;
	 * the answers in the 2025-11-25 types.
	 */
	@Override
	public <T> @Nullable T send(String method, Function<McpServerRequests, Mono<T>> request) {
		ModernRequests current = this.requests;
		this.life.require(this.client);
		if (current == null) {
			throw new IllegalStateException("generation " + this.life.number() + " of MCP server '" + this.life.server()
					+ "' is not discovered");
		}
		try {
			return request.apply(current).contextWrite(Caller.carried()).block(this.requestTimeout);
		}
		catch (McpException ex) {
			throw answered(ex); // the server answered
		}
		catch (McpError | McpCapabilityException | UnsupportedOperationException ex) {
			throw ex; // answered, or not asked
		}
		catch (RuntimeException ex) {
			McpException answer = CauseChain.cause(ex, McpException.class);
			if (answer != null) {
				throw answered(answer);
			}
			throw ex;
		}
	}

	@Override
	public @Nullable SessionInfo session() {
		DiscoverResult result = this.discovered;
		if (result == null) {
			return null;
		}
		return new SessionInfo(ClientSpecs.clientInfo(this.life.server()),
				this.schema.convert(declaredCapabilities(), McpSchema.ClientCapabilities.class),
				this.schema.initializeResult(result));
	}

	/**
	 * Probes the server with {@code server/discover}: 2026-07-28 has no ping, and a
	 * server must answer discovery. The probe's client is a new one over the generation's
	 * transport (a client of this revision is cheap: there is no handshake), so that the
	 * answer the generation's client keeps for the server's ttlMs does not answer it.
	 */
	@Override
	public @Nullable RuntimeException ping(Duration timeout) {
		try {
			newClient(this.life.require(this.transport)).discover().block(timeout);
			return null;
		}
		catch (McpException ex) {
			return null; // an answer is a sign of life
		}
		catch (RuntimeException ex) {
			return ex;
		}
	}

	@Override
	public void close() {
		Listening current = this.listening;
		if (current != null) {
			current.close();
		}
		Disposable pending = this.relisting;
		if (pending != null) {
			pending.dispose();
		}
	}

	@Override
	public boolean isAnswered(RuntimeException ex) {
		return (ex instanceof NotModernException notModern && notModern.isAnswered())
				|| ex instanceof UnsupportedRevisionException || RevisionClient.super.isAnswered(ex);
	}

	// A server that answered discovery as another revision's server, or that named only
	// revisions this client does not speak.
	@Override
	public @Nullable Refusal refusal(RuntimeException ex) {
		if (ex instanceof NotModernException notModern && notModern.isAnswered()) {
			return new Refusal(
					NotModernException.configurationMessage(this.life.redact(String.valueOf(notModern.getMessage()))));
		}
		return (ex instanceof UnsupportedRevisionException) ? new Refusal(null) : null;
	}

	// A 2025-11-25 server may exit on a request it does not know.
	@Override
	public RuntimeException exitedDuringHandshake(String message, RuntimeException ex) {
		return (ex instanceof NotModernException) ? ex : new NotModernException(message, false, ex);
	}

}
