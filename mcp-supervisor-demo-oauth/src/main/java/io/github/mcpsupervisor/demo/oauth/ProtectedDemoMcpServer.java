package io.github.mcpsupervisor.demo.oauth;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.BindException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Stream;

import io.modelcontextprotocol.common.McpTransportContext;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.modern.McpSchema.CallToolOutcome;
import io.modelcontextprotocol.modern.McpSchema.Implementation;
import io.modelcontextprotocol.modern.server.HmacRequestStateCodec;
import io.modelcontextprotocol.modern.server.McpRequestContext;
import io.modelcontextprotocol.modern.server.McpServer;
import io.modelcontextprotocol.modern.server.McpSyncResponse;
import io.modelcontextprotocol.modern.server.feature.McpSyncTool;
import io.modelcontextprotocol.modern.server.feature.McpSyncToolRepository;
import io.modelcontextprotocol.modern.server.feature.ToolsFeature;
import io.modelcontextprotocol.modern.server.feature.ToolsPage;
import io.modelcontextprotocol.modern.server.transport.HttpServletMcpTransport;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.server.transport.HttpServletStreamableServerTransportProvider;
import io.modelcontextprotocol.spec.HttpHeaders;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.LifecycleState;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.startup.Tomcat;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.springframework.security.oauth2.jwt.Jwt;
import org.springframework.security.oauth2.jwt.JwtException;
import org.springframework.security.oauth2.jwt.JwtValidators;
import org.springframework.security.oauth2.jwt.NimbusJwtDecoder;

/**
 * An MCP server protected by OAuth, in an embedded Tomcat on a loopback port (a free one
 * unless given): it serves revision 2026-07-28 at {@value #MODERN} and revision
 * 2025-11-25 at {@value #LEGACY}, each with the tools {@code echo}, {@code admin} (which
 * needs the scope {@code mcp:admin}), {@code locked} (refused for a scope the token
 * already has) and {@code whoami} (which answers {@code subject: } and the {@code sub} of
 * the token that very request carried, {@code subject: none} without one). A filter in
 * front of both checks the {@code Authorization: Bearer} JWT against the authorization
 * server's keys, its issuer and its audience (the endpoint's canonical URL), and answers
 * {@code 401 invalid_token} or {@code 403 insufficient_scope} as the MCP authorization
 * specification says; it serves each endpoint's protected resource metadata, which names
 * no scope. It records the tokens it received, their audiences and subjects, and can be
 * told to refuse every token it has seen so far (as if they had expired or were revoked
 * at the resource). Two options, off unless set: it can let requests without an
 * {@code Authorization} header through but for {@code tools/call} (a server that lets
 * anyone discover and list, but acts only for a user), and it can bind each
 * {@value #LEGACY} session to the subject that initialized it, answering a request of
 * another subject with that session's id as if the session did not exist (as the MCP
 * security best practices ask of sessions).
 */
public final class ProtectedDemoMcpServer implements AutoCloseable {

	/** The path of the revision 2026-07-28 endpoint. */
	public static final String MODERN = "/mcp";

	/** The path of the revision 2025-11-25 endpoint. */
	public static final String LEGACY = "/legacy";

	private static final String METADATA = "/.well-known/oauth-protected-resource";

	// the request attribute in which the filter leaves the subject of the request's
	// token, and the transport context's key under which the tools read it
	private static final String SUBJECT = ProtectedDemoMcpServer.class.getName() + ".subject";

	// held: java.util.logging keeps loggers weakly
	private static final Logger TOMCAT_LOGGER = Logger.getLogger("org.apache");

	private final JsonMapper json = JsonMapper.builder().build();

	private final String issuer;

	private final NimbusJwtDecoder decoder;

	private final Tomcat tomcat;

	private final Path baseDir;

	private final McpServer modern;

	private final McpSyncServer legacy;

	private final HttpServletStreamableServerTransportProvider legacyTransport;

	private final int port;

	private final Map<String, AtomicInteger> requestsByToken = new ConcurrentHashMap<>();

	private final List<Received> received = new CopyOnWriteArrayList<>();

	private final Set<String> refused = ConcurrentHashMap.newKeySet();

	// the legacy sessions initialized while they are bound, by id
	private final Map<String, SessionOwner> sessionOwners = new ConcurrentHashMap<>();

	private final AtomicInteger sessionsRefusedToOtherSubjects = new AtomicInteger();

	private volatile boolean allowAnonymous;

	private volatile boolean bindSessionsToSubject;

	/**
	 * Starts the server.
	 * @param authorizationServer the authorization server whose tokens it takes
	 */
	public ProtectedDemoMcpServer(DemoAuthorizationServer authorizationServer) throws IOException, LifecycleException {
		this(authorizationServer, 0);
	}

	/**
	 * Starts the server on a given loopback port.
	 * @param authorizationServer the authorization server whose tokens it takes
	 * @param port the port to listen on, {@code 0} for a free one
	 */
	public ProtectedDemoMcpServer(DemoAuthorizationServer authorizationServer, int port)
			throws IOException, LifecycleException {
		this.issuer = authorizationServer.issuer();
		this.decoder = NimbusJwtDecoder.withJwkSetUri(authorizationServer.jwkSetUri()).build();
		this.decoder.setJwtValidator(JwtValidators.createDefaultWithIssuer(this.issuer));
		McpJsonMapper jsonMapper = McpJsonDefaults.getMapper();
		this.modern = McpServer.builder()
			.serverInfo(Implementation.builder("protected", "1.0.0").build())
			.jsonMapper(jsonMapper)
			.feature(ToolsFeature.ofSync(modernTools()))
			// a key of its own, given: one server needs none shared, and the SDK warns
			// when it makes one up
			.requestStateCodec(HmacRequestStateCodec.builder().key(randomKey()).build())
			.build();
		// each request's subject, from the filter, into the context its handlers see
		HttpServletMcpTransport modernTransport = HttpServletMcpTransport.builder(this.modern)
			.jsonMapper(jsonMapper)
			.endpoint(MODERN)
			.contextExtractor(ProtectedDemoMcpServer::subjectContext)
			.build();
		this.legacyTransport = HttpServletStreamableServerTransportProvider.builder()
			.jsonMapper(jsonMapper)
			.mcpEndpoint(LEGACY)
			.contextExtractor(ProtectedDemoMcpServer::subjectContext)
			// no sweeper of idle sessions: its thread (Reactor's newSingle, no daemon) is
			// never disposed, and would keep alive a JVM whose main thread has ended
			.sessionSweepInterval(null)
			.build();
		this.legacy = io.modelcontextprotocol.server.McpServer.sync(this.legacyTransport)
			.serverInfo("protected", "1.0.0")
			.capabilities(McpSchema.ServerCapabilities.builder().tools(true).build())
			.tools(legacyTools())
			.build();
		TOMCAT_LOGGER.setLevel(Level.WARNING);
		this.baseDir = Files.createTempDirectory("protected-mcp-tomcat");
		this.tomcat = new Tomcat();
		this.tomcat.setBaseDir(this.baseDir.toString());
		Connector connector = new Connector();
		connector.setPort(port);
		connector.setProperty("address", "127.0.0.1");
		this.tomcat.setConnector(connector);
		StandardContext webapp = (StandardContext) this.tomcat.addContext("", this.baseDir.toString());
		// as in Spring Boot's Tomcat: the application's class loader above the context's
		// (its checks at the stop read Tomcat's classes through it, in an executable jar
		// too), and no leak checks that need the JDK opened
		webapp.setParentClassLoader(ProtectedDemoMcpServer.class.getClassLoader());
		webapp.setClearReferencesRmiTargets(false);
		webapp.setClearReferencesThreadLocals(false);
		webapp.addServletContainerInitializer((classes, context) -> {
			FilterRegistration.Dynamic bearer = context.addFilter("bearer", new BearerFilter());
			bearer.setAsyncSupported(true);
			bearer.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST), false, "/*");
			ServletRegistration.Dynamic mcp = context.addServlet("modern", modernTransport);
			mcp.setAsyncSupported(true);
			mcp.addMapping(MODERN);
			ServletRegistration.Dynamic metadata = context.addServlet("metadata", new MetadataServlet());
			metadata.addMapping(METADATA + "/*");
			ServletRegistration.Dynamic legacyServlet = context.addServlet("legacy", this.legacyTransport);
			legacyServlet.setAsyncSupported(true);
			legacyServlet.addMapping(LEGACY);
		}, null);
		this.tomcat.start();
		if (connector.getState() != LifecycleState.STARTED) {
			// Tomcat logs a port it cannot bind, and starts without its connector
			close();
			throw new BindException("Cannot listen on 127.0.0.1:" + port);
		}
		this.port = connector.getLocalPort();
	}

	/**
	 * Returns the URL of an endpoint, which is also its canonical resource URL.
	 * @param path {@link #MODERN} or {@link #LEGACY}
	 * @return the endpoint's URL
	 */
	public String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	/**
	 * Refuses, from now on, every token it has received so far.
	 */
	public void refuseTokensSeenSoFar() {
		this.refused.addAll(this.requestsByToken.keySet());
	}

	/**
	 * Lets requests without an {@code Authorization} header through, but for
	 * {@code tools/call}, which is still answered {@code 401} with the
	 * {@code WWW-Authenticate} challenge; or refuses them all again (the default).
	 * @param allow whether requests without a token may discover and list
	 */
	public void allowAnonymous(boolean allow) {
		this.allowAnonymous = allow;
	}

	/**
	 * Binds each {@value #LEGACY} session initialized from now on to the subject of the
	 * token of its {@code initialize} request (none without a token): a later request
	 * with that {@code Mcp-Session-Id} and a token of another subject is answered as the
	 * SDK's transport answers a session it does not know, {@code 404}. Off by default.
	 * @param bind whether sessions belong to the subject that initialized them
	 */
	public void bindSessionsToSubject(boolean bind) {
		this.bindSessionsToSubject = bind;
	}

	/**
	 * Returns how many requests it answered {@code 404} because their session belongs to
	 * another subject.
	 * @return the requests refused a session of another subject
	 */
	public int sessionsRefusedToOtherSubjects() {
		return this.sessionsRefusedToOtherSubjects.get();
	}

	/**
	 * Returns the requests it received, in their order.
	 * @return the requests
	 */
	public List<Received> received() {
		return List.copyOf(this.received);
	}

	/**
	 * Returns the requests it received at an endpoint.
	 * @param path the endpoint's path
	 * @return its requests
	 */
	public List<Received> received(String path) {
		return this.received.stream().filter((request) -> request.path().equals(path)).toList();
	}

	/**
	 * Returns the different tokens it received.
	 * @return the number of tokens
	 */
	public int tokens() {
		return this.requestsByToken.size();
	}

	/**
	 * Returns how many requests each token it received carried.
	 * @return the number of requests by token
	 */
	public Map<String, Integer> requestsByToken() {
		Map<String, Integer> counts = new ConcurrentHashMap<>();
		this.requestsByToken.forEach((token, count) -> counts.put(token, count.get()));
		return counts;
	}

	@Override
	public void close() throws LifecycleException, IOException {
		try {
			this.tomcat.stop();
			this.tomcat.destroy();
		}
		finally {
			this.legacy.close();
			this.modern.closeGracefully();
			try (Stream<Path> paths = Files.walk(this.baseDir)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
	}

	private static McpTransportContext subjectContext(HttpServletRequest request) {
		Object subject = request.getAttribute(SUBJECT);
		return (subject != null) ? McpTransportContext.create(Map.of(SUBJECT, subject)) : McpTransportContext.EMPTY;
	}

	private static String whoami(McpTransportContext context) {
		Object subject = context.get(SUBJECT);
		return "subject: " + ((subject != null) ? subject : "none");
	}

	private static byte[] randomKey() {
		byte[] key = new byte[32];
		new SecureRandom().nextBytes(key);
		return key;
	}

	private McpSyncToolRepository modernTools() {
		Map<String, Object> schema = Map.of("type", "object", "properties",
				Map.of("message", Map.of("type", "string")));
		List<io.modelcontextprotocol.modern.McpSchema.Tool> tools = List.of(
				io.modelcontextprotocol.modern.McpSchema.Tool.builder("echo", schema)
					.description("Echoes the message")
					.build(),
				io.modelcontextprotocol.modern.McpSchema.Tool.builder("admin", schema)
					.description("Echoes the message, with scope mcp:admin")
					.build(),
				io.modelcontextprotocol.modern.McpSchema.Tool.builder("locked", schema)
					.description("Refused whatever the token's scopes")
					.build(),
				io.modelcontextprotocol.modern.McpSchema.Tool.builder("whoami", Map.of("type", "object"))
					.description("Answers the subject of the request's token")
					.build());
		return new McpSyncToolRepository() {

			@Override
			public ToolsPage list(McpRequestContext context, @Nullable String cursor) {
				return ToolsPage.of(tools);
			}

			@Override
			public McpSyncTool find(McpRequestContext context, String name) {
				io.modelcontextprotocol.modern.McpSchema.Tool tool = tools.stream()
					.filter((candidate) -> candidate.name().equals(name))
					.findFirst()
					.orElse(null);
				if (tool == null) {
					return null;
				}
				return "whoami".equals(name)
						? McpSyncTool.of(tool,
								(toolContext, request) -> modernText(whoami(toolContext.transportContext())))
						: McpSyncTool.of(tool,
								(toolContext, request) -> modernText(name + ": " + request.arguments().get("message")));
			}

		};
	}

	private static McpSyncResponse<CallToolOutcome> modernText(String text) {
		return McpSyncResponse.result(io.modelcontextprotocol.modern.McpSchema.CallToolResult.builder()
			.content(List.of(io.modelcontextprotocol.modern.McpSchema.TextContent.builder(text).build()))
			.build());
	}

	private static List<SyncToolSpecification> legacyTools() {
		Map<String, Object> schema = Map.of("type", "object", "properties",
				Map.of("message", Map.of("type", "string")));
		SyncToolSpecification whoami = SyncToolSpecification.builder()
			.tool(McpSchema.Tool.builder("whoami", Map.of("type", "object"))
				.description("Answers the subject of the request's token")
				.build())
			.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
				.content(List.of(McpSchema.TextContent.builder(whoami(exchange.transportContext())).build()))
				.isError(false)
				.build())
			.build();
		return Stream
			.concat(Stream.of("echo", "admin", "locked")
				.map((name) -> SyncToolSpecification.builder()
					.tool(McpSchema.Tool.builder(name, schema).description("Echoes the message").build())
					.callHandler((exchange, request) -> McpSchema.CallToolResult.builder()
						.content(List.of(McpSchema.TextContent.builder(name + ": " + request.arguments().get("message"))
							.build()))
						.isError(false)
						.build())
					.build()), Stream.of(whoami))
			.toList();
	}

	/**
	 * A request it received.
	 *
	 * @param path the endpoint's path
	 * @param method the JSON-RPC method, {@code null} for a GET, a DELETE or a response
	 * @param token the bearer token, {@code null} if none
	 * @param audience the token's audience, empty if none or not a valid token
	 * @param status the status it answered with when it refused the request, 0 when it
	 * let it through
	 * @param subject the token's {@code sub}, {@code null} if none or not a valid token
	 */
	public record Received(String path, @Nullable String method, @Nullable String token, List<String> audience,
			int status, @Nullable String subject) {

	}

	/**
	 * The subject a session belongs to.
	 *
	 * @param subject the {@code sub} of the token that initialized it, {@code null} if
	 * none
	 */
	private record SessionOwner(@Nullable String subject) {

	}

	/**
	 * Serves each endpoint's protected resource metadata (RFC 9728), naming no scope (no
	 * {@code scopes_supported}), as many servers do.
	 */
	private final class MetadataServlet extends HttpServlet {

		private static final long serialVersionUID = 1L;

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			String endpoint = request.getRequestURI().substring(METADATA.length());
			response.setContentType("application/json");
			response.getWriter()
				.write(ProtectedDemoMcpServer.this.json.writeValueAsString(Map.of("resource", url(endpoint),
						"authorization_servers", List.of(ProtectedDemoMcpServer.this.issuer))));
		}

	}

	/**
	 * Checks the bearer token of each request, as a resource server does.
	 */
	private final class BearerFilter implements Filter {

		@Override
		public void doFilter(ServletRequest servletRequest, ServletResponse servletResponse, FilterChain chain)
				throws IOException, ServletException {
			HttpServletRequest request = (HttpServletRequest) servletRequest;
			HttpServletResponse response = (HttpServletResponse) servletResponse;
			String path = request.getRequestURI();
			if (path.startsWith(METADATA)) {
				// RFC 9728, naming no scope (no scopes_supported), as many servers do
				response.setContentType("application/json");
				response.getWriter()
					.write(ProtectedDemoMcpServer.this.json
						.writeValueAsString(Map.of("resource", url(path.substring(METADATA.length())),
								"authorization_servers", List.of(ProtectedDemoMcpServer.this.issuer))));
				return;
			}
			String resource = url(path);
			byte[] body = request.getInputStream().readAllBytes();
			JsonNode message = (body.length > 0) ? ProtectedDemoMcpServer.this.json.readTree(body) : null;
			String method = (message != null && message.hasNonNull("method")) ? message.get("method").asString() : null;
			String authorization = request.getHeader("Authorization");
			String token = (authorization != null && authorization.startsWith("Bearer "))
					? authorization.substring("Bearer ".length()) : null;
			if (token == null) {
				if (authorization == null && ProtectedDemoMcpServer.this.allowAnonymous
						&& !"tools/call".equals(method)) {
					pass(request, response, chain, body, new Received(path, method, null, List.of(), 0, null));
					return;
				}
				refuse(response, new Received(path, method, null, List.of(), 401, null),
						"Bearer resource_metadata=\"" + metadata(path) + "\"");
				return;
			}
			ProtectedDemoMcpServer.this.requestsByToken.computeIfAbsent(token, (key) -> new AtomicInteger())
				.incrementAndGet();
			Jwt jwt;
			try {
				jwt = ProtectedDemoMcpServer.this.decoder.decode(token);
			}
			catch (JwtException ex) {
				refuse(response, new Received(path, method, token, List.of(), 401, null), invalidToken(path));
				return;
			}
			List<String> audience = (jwt.getAudience() != null) ? jwt.getAudience() : List.of();
			String subject = jwt.getSubject();
			if (!audience.contains(resource) || ProtectedDemoMcpServer.this.refused.contains(token)) {
				refuse(response, new Received(path, method, token, audience, 401, subject), invalidToken(path));
				return;
			}
			String tool = ("tools/call".equals(method) && message.path("params").hasNonNull("name"))
					? message.path("params").get("name").asString() : null;
			List<String> scopes = (jwt.getClaimAsStringList("scope") != null) ? jwt.getClaimAsStringList("scope")
					: List.of();
			if ("admin".equals(tool) && !scopes.contains("mcp:admin")) {
				refuse(response, new Received(path, method, token, audience, 403, subject),
						"Bearer error=\"insufficient_scope\", scope=\"mcp:read mcp:admin\", resource_metadata=\""
								+ metadata(path) + "\"");
				return;
			}
			if ("locked".equals(tool)) {
				refuse(response, new Received(path, method, token, audience, 403, subject),
						"Bearer error=\"insufficient_scope\", scope=\"mcp:read\", resource_metadata=\"" + metadata(path)
								+ "\"");
				return;
			}
			pass(request, response, chain, body, new Received(path, method, token, audience, 0, subject));
		}

		// lets the request through to its endpoint, with its subject, unless it names a
		// session of another subject
		private void pass(HttpServletRequest request, HttpServletResponse response, FilterChain chain, byte[] body,
				Received received) throws IOException, ServletException {
			HttpServletResponse answer = response;
			String sessionId = request.getHeader(HttpHeaders.MCP_SESSION_ID);
			if (LEGACY.equals(received.path()) && ProtectedDemoMcpServer.this.bindSessionsToSubject) {
				if ("initialize".equals(received.method())) {
					answer = new SessionBinding(response, received.subject());
				}
				else if (sessionId != null) {
					SessionOwner owner = ProtectedDemoMcpServer.this.sessionOwners.get(sessionId);
					if (owner != null && !Objects.equals(owner.subject(), received.subject())) {
						refuseSession(request, response, sessionId, received);
						return;
					}
				}
			}
			ProtectedDemoMcpServer.this.received.add(received);
			if (received.subject() != null) {
				request.setAttribute(SUBJECT, received.subject());
			}
			chain.doFilter(new CachedBodyRequest(request, body), answer);
			if (sessionId != null && "DELETE".equals(request.getMethod())
					&& response.getStatus() == HttpServletResponse.SC_OK) {
				ProtectedDemoMcpServer.this.sessionOwners.remove(sessionId);
			}
		}

		// as the SDK's transport answers a session it does not know
		private void refuseSession(HttpServletRequest request, HttpServletResponse response, String sessionId,
				Received received) throws IOException {
			ProtectedDemoMcpServer.this.sessionsRefusedToOtherSubjects.incrementAndGet();
			ProtectedDemoMcpServer.this.received.add(new Received(received.path(), received.method(), received.token(),
					received.audience(), HttpServletResponse.SC_NOT_FOUND, received.subject()));
			if ("POST".equals(request.getMethod())) {
				ProtectedDemoMcpServer.this.legacyTransport.responseError(response, HttpServletResponse.SC_NOT_FOUND,
						McpError.builder(McpSchema.ErrorCodes.INTERNAL_ERROR)
							.message("Session not found: " + sessionId)
							.build());
			}
			else {
				response.sendError(HttpServletResponse.SC_NOT_FOUND);
			}
		}

		private void refuse(HttpServletResponse response, Received received, String challenge) throws IOException {
			ProtectedDemoMcpServer.this.received.add(received);
			response.setHeader("WWW-Authenticate", challenge);
			response.sendError(received.status());
		}

		private String invalidToken(String path) {
			return "Bearer error=\"invalid_token\", resource_metadata=\"" + metadata(path) + "\"";
		}

		private String metadata(String path) {
			return url(METADATA + path);
		}

	}

	/**
	 * The answer to an {@code initialize} request, which binds the session its transport
	 * creates to the request's subject as soon as the transport names it, before the
	 * client can use it.
	 */
	private final class SessionBinding extends HttpServletResponseWrapper {

		private final SessionOwner owner;

		SessionBinding(HttpServletResponse response, @Nullable String subject) {
			super(response);
			this.owner = new SessionOwner(subject);
		}

		@Override
		public void setHeader(String name, String value) {
			bind(name, value);
			super.setHeader(name, value);
		}

		@Override
		public void addHeader(String name, String value) {
			bind(name, value);
			super.addHeader(name, value);
		}

		private void bind(String name, String value) {
			if (HttpHeaders.MCP_SESSION_ID.equalsIgnoreCase(name)) {
				ProtectedDemoMcpServer.this.sessionOwners.put(value, this.owner);
			}
		}

	}

	/**
	 * A request whose body was read by the filter, read again by the servlet.
	 */
	private static final class CachedBodyRequest extends HttpServletRequestWrapper {

		private final byte[] body;

		CachedBodyRequest(HttpServletRequest request, byte[] body) {
			super(request);
			this.body = body;
		}

		@Override
		public ServletInputStream getInputStream() {
			ByteArrayInputStream in = new ByteArrayInputStream(this.body);
			return new ServletInputStream() {

				@Override
				public int read() {
					return in.read();
				}

				@Override
				public int read(byte[] buffer, int offset, int length) {
					return in.read(buffer, offset, length);
				}

				@Override
				public boolean isFinished() {
					return in.available() == 0;
				}

				@Override
				public boolean isReady() {
					return true;
				}

				@Override
				public void setReadListener(ReadListener listener) {
					try {
						listener.onDataAvailable();
						listener.onAllDataRead();
					}
					catch (IOException ex) {
						listener.onError(ex);
					}
				}

			};
		}

		@Override
		public BufferedReader getReader() {
			return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
		}

	}

}
