package io.github.mcpsupervisor.autoconfigure.properties;

import java.lang.reflect.RecordComponent;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.modelcontextprotocol.spec.McpSchema.LoggingLevel;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.ReflectionUtils;
import org.springframework.validation.annotation.Validated;

/**
 * Configuration of the supervised MCP servers: {@code mcp.servers.<name>.*}, keyed by
 * name so that profiles, environment variables and command-line arguments can change one
 * property of one server or add a server, and {@code mcp.defaults.*}, the settings each
 * server inherits unless it sets them itself. Both bind one record, {@link Server}, in
 * which a setting not set is {@code null}: a server inherits it from the defaults, and
 * the defaults from the built-in values, merged once by {@link #effective(Server)}.
 * Unknown keys are rejected.
 *
 * @param enabled Whether MCP servers are supervised at all
 * @param defaults The settings every server inherits unless it sets them itself: those of
 * a server but its own (enabled, transport, command, args, env, working-directory, url,
 * headers, roots and oauth)
 * @param servers The MCP servers to supervise, by name: 1 to 32 letters, digits, '_' or
 * '-', the prefix of the server's tool names
 * @param serversConfiguration Resources (e.g. 'classpath:mcp-servers.json' or
 * 'file:./mcp.json') in the 'mcpServers' JSON format of Claude Desktop, Cursor and VS
 * Code whose servers are added to 'mcp.servers'; properties set for a server of such a
 * file win over the file's, property by property
 * @param clientType Which kind of Spring AI client customizers and annotated MCP client
 * handlers the application writes: 'sync' (McpClientCustomizer&lt;McpClient.SyncSpec&gt;,
 * handlers returning values) or 'async' (McpClientCustomizer&lt;McpClient.AsyncSpec&gt;,
 * handlers returning Mono), as spring.ai.mcp.client.type chooses for Spring AI's clients
 * @param runtimeDirectory Directory where the processes of the stdio servers are recorded
 * while they run, so that the next start of the application terminates those that
 * outlived it (a JVM killed with SIGKILL); default a directory per user, application name
 * and working directory under java.io.tmpdir
 * @param reload How changes of the servers' configuration are applied while the
 * application runs
 * @param authorization Where the OAuth authorizations of the servers are kept, which the
 * application's replicas share when it is their database
 * @param maxConcurrentStarts How many stdio servers start at once (spawn and handshake,
 * until connected or failed), all servers of the application together, restarts and
 * standby spares included: the others wait in line, in the order they came, after their
 * retry delay and before their initialization timeout runs
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = "mcp", ignoreUnknownFields = false)
@Validated
@ValidServers
@ValidDelays
public record McpSupervisorProperties(@DefaultValue("true") boolean enabled, @DefaultValue @Valid Server defaults,
		@DefaultValue Map<@Pattern(regexp = SERVER_NAME,
				message = "must be 1 to 32 letters, digits, '_' or '-'") String, @Valid Server> servers,
		@DefaultValue List<String> serversConfiguration, @DefaultValue("sync") McpClientType clientType,
		@Nullable Path runtimeDirectory, @DefaultValue @Valid Reload reload,
		@DefaultValue @Valid Authorization authorization, @DefaultValue("4") @Min(1) int maxConcurrentStarts) {

	/**
	 * The longest duration of any setting, in days: far beyond any timeout or delay that
	 * makes sense, and far within what the timers take (a duration is counted in
	 * nanoseconds, up to 292 years, and some are added together).
	 */
	static final long MAX_DAYS = 365;

	/** The rule of a server's name: 1 to 32 letters, digits, '_' or '-'. */
	public static final String SERVER_NAME = "[A-Za-z0-9_-]{1,32}";

	/** Why a duration breaks the rule. */
	static final String TOO_LONG = "must not exceed 365 days";

	/** The rule of an entry of inherit-env: a variable's name, '*' standing for any. */
	static final String INHERITED_VARIABLE = "[A-Za-z0-9_.()*-]+";

	/**
	 * The rule of a proxy's host: a host name, an IPv4 address or a bracketed IPv6 one.
	 */
	static final String PROXY_HOST = "[A-Za-z0-9.-]+|\\[[0-9A-Fa-f:.]+\\]";

	/** Why a proxy's host breaks the rule. */
	static final String PROXY_HOST_MESSAGE = "must be a host name or an IP address, without a scheme or a port";

	/** The values of a protocol, as they are written. */
	public static final String PROTOCOLS = "auto|2025-11-25|2026-07-28";

	/** Why a protocol is not one. */
	static final String PROTOCOL_MESSAGE = "must be auto, 2025-11-25 or 2026-07-28";

	/** Why an entry of inherit-env breaks the rule. */
	static final String INHERITED_VARIABLE_MESSAGE = "must be the name of an environment variable (letters, digits,"
			+ " '_', '.', '-', '(' and ')'), a pattern in which '*' stands for any characters (e.g. AWS_*),"
			+ " or '*' for all";

	/**
	 * Returns the settings every server inherits: {@code mcp.defaults}, and the built-in
	 * value of each setting it does not set.
	 * @return the defaults, each setting set but those a server only can set
	 */
	public Server effectiveDefaults() {
		// a server's own settings are never inherited, even where nothing refuses them
		// (without Bean Validation)
		Map<String, @Nullable Object> own = new LinkedHashMap<>();
		for (RecordComponent component : Server.class.getRecordComponents()) {
			if (ValidServers.OWN_SETTINGS.contains(component.getName())) {
				own.put(component.getName(),
						ReflectionUtils.invokeMethod(component.getAccessor(), BuiltInSettings.SERVER));
			}
		}
		return Server.inheriting(Inheritance.with(this.defaults, own), BuiltInSettings.SERVER);
	}

	/**
	 * Returns the settings a server has once it inherits what it does not set: from
	 * {@code mcp.defaults}, and from the built-in values.
	 * @param server a server as it is configured, in {@code mcp.servers} or given at
	 * runtime
	 * @return its effective settings, each one set but those it may leave unset
	 * (working-directory, url, log-level, the proxy, the SSL bundle, OAuth's)
	 */
	public Server effective(Server server) {
		Server effective = Server.inheriting(server, effectiveDefaults());
		// a streamable-http server's process is not the application's: it has no standby,
		// whatever the defaults say
		return (effective.transportOrDefault() == McpTransportType.STDIO) ? effective
				: Inheritance.with(effective, Map.of("standby", new Standby(false)));
	}

	/**
	 * One supervised MCP server ({@code mcp.servers.<name>}), or the settings every
	 * server inherits ({@code mcp.defaults}). A setting that is not set is {@code null}:
	 * a server inherits it from {@code mcp.defaults}, and {@code mcp.defaults} from the
	 * built-in value; the settings of each group (reconnect, call, ...) are inherited one
	 * by one. The settings of how a server is reached and authorized are its own: they
	 * are not inherited, and {@code mcp.defaults} refuses them.
	 *
	 * @param enabled Whether this server is supervised (a server's own); default true
	 * @param transport How to reach the server: 'stdio' (a child process) or
	 * 'streamable-http' (a server's own); default stdio
	 * @param command The executable that starts a stdio server (a server's own; required
	 * for stdio)
	 * @param args The arguments of the command (a server's own)
	 * @param env Environment variables of the server, added to those it inherits (see
	 * inherit-env; a server's own)
	 * @param workingDirectory Working directory of the server process (must exist; a
	 * server's own); default the application's
	 * @param url The MCP endpoint of a streamable-http server, an absolute http or https
	 * URL (a server's own; required for streamable-http)
	 * @param headers HTTP headers sent with every request to a streamable-http server
	 * (e.g. Authorization; a server's own); their values are masked wherever they are
	 * shown
	 * @param roots Roots offered to the server, absolute file: URIs (e.g.
	 * file:///srv/project): the directories it may work in, announced with the roots
	 * capability to every generation (a server's own)
	 * @param requestTimeout Timeout of each tool call and tool listing (all pages
	 * together)
	 * @param initializationTimeout Timeout of the initialize handshake of each connection
	 * attempt
	 * @param terminationGracePeriod How long a stdio server may take to exit after
	 * SIGTERM before every survivor of its process group and tree is killed
	 * @param failOnStartupError Whether the application fails to start when a server does
	 * not connect at its first attempt
	 * @param required Whether the 'mcp' health component is DOWN while a server is not UP
	 * @param reconnect How a lost server is reconnected
	 * @param call How tool calls behave around outages
	 * @param healthCheck The liveness probe of a connected server
	 * @param sampling The bounds of each server's sampling requests
	 * @param elicitation The bounds of each server's elicitation requests
	 * @param inheritEnv Variables of the application's environment that a stdio server
	 * inherits besides HOME, LOGNAME, PATH, SHELL, TERM, USER, TMPDIR, LANG and LC_*
	 * (Windows: APPDATA, HOMEDRIVE, HOMEPATH, LOCALAPPDATA, PATH, PROCESSOR_ARCHITECTURE,
	 * SYSTEMDRIVE, SYSTEMROOT, TEMP, TMP, USERNAME, USERPROFILE, PROGRAMFILES, COMSPEC,
	 * PATHEXT): names, patterns in which '*' stands for any characters (e.g. AWS_*), or
	 * '*' for the whole environment; a server's list replaces that of the defaults
	 * @param protocol The MCP revision servers are spoken to in: 'auto' (negotiated per
	 * server: server/discover first, initialize when the server does not answer it as a
	 * 2026-07-28 server), '2025-11-25' or '2026-07-28'
	 * @param logLevel The lowest level of the log messages servers are asked to send to
	 * the application's logging handlers: 2025-11-25 servers by logging/setLevel on every
	 * new session, 2026-07-28 servers on every request; not set, 2025-11-25 servers send
	 * what they choose and 2026-07-28 servers send none
	 * @param oauth How a streamable-http server's requests are authorized with OAuth 2.1
	 * (a server's own)
	 * @param http The HTTP client settings of the streamable-http servers
	 * @param toolNames How the tools of each server are named for the model: 'prefixed'
	 * ('&lt;server&gt;_&lt;tool&gt;', never colliding) or 'spring-ai' (as Spring AI's MCP
	 * client names them: by the application's McpToolNamePrefixGenerator bean, or the
	 * tool's own name; a name taken by another tool, or not 1 to 64 letters, digits, '_'
	 * or '-', is refused)
	 * @param toolsWhenDown What becomes of the tools of each server while it is down:
	 * 'withdraw' (withdrawn when it fails; listed unchanged while it reconnects, is
	 * disconnected or waits for an authorization, and a call fails) or 'keep' (listed in
	 * every down state with their names and schemas, described as unavailable since when
	 * and in which state; a call answers with that notice as its result, after waiting
	 * for recovery as call.wait-for-recovery says while the server reconnects)
	 * @param standby The warm standby of the stdio servers: a spare process started and
	 * initialized while the server serves, promoted at once when the serving process is
	 * lost; streamable-http servers refuse it, and ignore that of the defaults
	 * @param idle Whether the server runs only while it is used: started on its first
	 * call, stopped after a time without one
	 * @since 0.1.0
	 */
	public record Server(@Nullable Boolean enabled, @Nullable McpTransportType transport, @Nullable String command,
			@DefaultValue List<String> args, @DefaultValue Map<String, String> env, @Nullable Path workingDirectory,
			@Nullable URI url, @DefaultValue Map<String, String> headers, @DefaultValue List<URI> roots,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration requestTimeout,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration initializationTimeout,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration terminationGracePeriod,
			@Nullable Boolean failOnStartupError, @Nullable Boolean required, @DefaultValue @Valid Reconnect reconnect,
			@DefaultValue @Valid Call call, @DefaultValue @Valid HealthCheck healthCheck,
			@DefaultValue @Valid Sampling sampling, @DefaultValue @Valid Elicitation elicitation,
			@Nullable List<@Pattern(regexp = INHERITED_VARIABLE,
					message = INHERITED_VARIABLE_MESSAGE) String> inheritEnv,
			@Nullable @Pattern(regexp = PROTOCOLS, message = PROTOCOL_MESSAGE) String protocol,
			@Nullable LoggingLevel logLevel, @DefaultValue @Valid OAuth oauth, @DefaultValue @Valid Http http,
			@Nullable McpToolNaming toolNames, @Nullable ToolsWhenDown toolsWhenDown,
			@DefaultValue @Valid Standby standby, @DefaultValue @Valid Idle idle) {

		public Server {
			args = (args != null) ? args : List.of();
			env = (env != null) ? env : Map.of();
			headers = (headers != null) ? headers : Map.of();
			roots = (roots != null) ? roots : List.of();
			reconnect = (reconnect != null) ? reconnect : new Reconnect(null, null, null, null, null, null);
			call = (call != null) ? call : new Call(null, null, null, null, null);
			healthCheck = (healthCheck != null) ? healthCheck : new HealthCheck(null, null, null);
			sampling = (sampling != null) ? sampling : new Sampling(null, null, null);
			elicitation = (elicitation != null) ? elicitation : new Elicitation(null, null);
			oauth = (oauth != null) ? oauth : OAuth.NONE;
			http = (http != null) ? http : new Http(null, null, null, null);
			standby = (standby != null) ? standby : new Standby(null);
			idle = (idle != null) ? idle : new Idle(null, null);
		}

		/**
		 * Describes the server as it may be logged: the values of its environment
		 * variables and headers masked, its command line and URL as everywhere else.
		 * @return the description
		 */
		@Override
		public String toString() {
			List<String> commandLine = new ArrayList<>();
			if (this.command != null) {
				commandLine.add(this.command);
			}
			commandLine.addAll(this.args);
			return "Server[enabled=" + this.enabled + ", transport=" + this.transport + ", commandLine="
					+ ConfigurationSanitizer.maskCommandLine(commandLine) + ", env=" + masked(this.env)
					+ ", workingDirectory=" + this.workingDirectory + ", url="
					+ ((this.url != null) ? ConfigurationSanitizer.maskUrl(this.url) : null) + ", headers="
					+ masked(this.headers) + ", roots=" + this.roots + ", requestTimeout=" + this.requestTimeout
					+ ", initializationTimeout=" + this.initializationTimeout + ", terminationGracePeriod="
					+ this.terminationGracePeriod + ", failOnStartupError=" + this.failOnStartupError + ", required="
					+ this.required + ", reconnect=" + this.reconnect + ", call=" + this.call + ", healthCheck="
					+ this.healthCheck + ", sampling=" + this.sampling + ", elicitation=" + this.elicitation
					+ ", inheritEnv=" + this.inheritEnv + ", protocol=" + this.protocol + ", logLevel=" + this.logLevel
					+ ", oauth=" + this.oauth + ", http=" + this.http + ", toolNames=" + this.toolNames
					+ ", toolsWhenDown=" + this.toolsWhenDown + ", standby=" + this.standby + ", idle=" + this.idle
					+ "]";
		}

		private static Map<String, String> masked(Map<String, String> values) {
			Map<String, String> masked = new TreeMap<>();
			values.keySet().forEach((key) -> masked.put(key, ConfigurationSanitizer.MASK));
			return masked;
		}

		/**
		 * Returns whether this server is supervised: unless {@code enabled} is
		 * {@code false}.
		 * @return whether it is supervised
		 */
		public boolean isEnabled() {
			return !Boolean.FALSE.equals(this.enabled);
		}

		/**
		 * Returns how the server is reached: {@code transport}, or stdio when it is not
		 * set.
		 * @return the transport
		 */
		public McpTransportType transportOrDefault() {
			return (this.transport != null) ? this.transport : McpTransportType.STDIO;
		}

		/**
		 * Returns the settings of a server, or of the defaults, once they inherit what
		 * they do not set.
		 * @param own the settings that are set
		 * @param inherited the settings inherited
		 * @return the merged settings
		 */
		static Server inheriting(Server own, Server inherited) {
			return Inheritance.inherit(own, inherited);
		}

	}

	/**
	 * The HTTP client of the streamable-http servers, as Spring Boot's
	 * {@code spring.http.clients.*} names its settings: servers with equal settings share
	 * one client.
	 *
	 * @param connectTimeout Timeout of establishing each connection
	 * @param version The HTTP version of the requests: 'http-1-1', or 'http-2' (HTTP/2
	 * where the server takes it, HTTP/1.1 otherwise)
	 * @param ssl The TLS settings of https servers
	 * @param proxy The HTTP proxy the requests go through; not set, those of the JVM's
	 * default proxy selector (the https.proxyHost, http.proxyHost and http.nonProxyHosts
	 * system properties)
	 * @since 0.1.0
	 */
	public record Http(
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration connectTimeout,
			@Nullable McpHttpVersion version, @DefaultValue @Valid Ssl ssl, @DefaultValue @Valid Proxy proxy) {

		public Http {
			ssl = (ssl != null) ? ssl : new Ssl(null);
			proxy = (proxy != null) ? proxy : new Proxy(null, null);
		}

		/**
		 * Returns whether the server sets any HTTP client setting of its own.
		 * @return whether one is set
		 */
		public boolean isSet() {
			return this.connectTimeout != null || this.version != null || this.ssl.bundle() != null
					|| this.proxy.isSet();
		}

	}

	/**
	 * The TLS settings of an HTTP client.
	 *
	 * @param bundle The name of the SSL bundle (spring.ssl.bundle.pem.&lt;name&gt;.* or
	 * spring.ssl.bundle.jks.&lt;name&gt;.*) whose trust material, key material and
	 * options the TLS connections use; not set, the JVM's default trust store
	 * @since 0.1.0
	 */
	public record Ssl(@Nullable String bundle) {

	}

	/**
	 * An HTTP proxy, reached with HTTP CONNECT for https servers. Proxy authentication is
	 * not supported.
	 *
	 * @param host The host name or IP address of the proxy (no scheme, no port)
	 * @param port The port of the proxy
	 * @since 0.1.0
	 */
	public record Proxy(@Nullable @Pattern(regexp = PROXY_HOST, message = PROXY_HOST_MESSAGE) String host,
			@Nullable @Min(1) @Max(65535) Integer port) {

		/**
		 * Returns whether a proxy is set.
		 * @return whether the host is set
		 */
		public boolean isSet() {
			return this.host != null || this.port != null;
		}

		/**
		 * Returns whether host and port are set together, or neither is.
		 * @return whether the proxy is complete
		 */
		@AssertTrue(message = "host and port must be set together")
		public boolean isComplete() {
			return (this.host == null) == (this.port == null);
		}

	}

	/**
	 * How a streamable-http server's requests are authorized with OAuth 2.1 (needs Spring
	 * Security's OAuth2 client on the class path): by a client registration of the
	 * application's, or by the authorization server the server names (discovery, once it
	 * answers 401): with the authorization code, for which redirect-uri is set, or with
	 * client credentials (grant-type), for which client-id, client-secret and issuer are.
	 *
	 * @param registration The id of the Spring Security client registration
	 * (spring.security.oauth2.client.registration.&lt;id&gt;) whose tokens the server's
	 * requests carry: client_credentials for a service, authorization_code for a server
	 * that acts for a person
	 * @param redirectUri Where the authorization server the server names sends a person
	 * back (the application's redirect endpoint): turns discovery on; a client is
	 * registered there unless client-id is set
	 * @param clientId The id of the client that the discovered authorization server gave
	 * the application, when it does not register clients itself
	 * @param clientSecret The secret of that client, if it has one
	 * @param clientMetadataDocument The https URL of the application's Client ID Metadata
	 * Document, the client id at authorization servers that take one
	 * @param clientName The name of a client registered dynamically
	 * @param scopes The scopes to ask for; default those the server's challenge or
	 * metadata name
	 * @param grantType How the discovered authorization server gives tokens:
	 * 'authorization-code' (a person authorizes; needs redirect-uri) or
	 * 'client-credentials' (a service; needs client-id and client-secret)
	 * @param issuer The issuer of the authorization server that gave the application its
	 * client-id: required with it, since a server that names another one never sees the
	 * client
	 * @param actsFor Whose token the application's requests carry: 'application' (the
	 * server's own, obtained once for everyone) or 'user' (each user's own, from the
	 * authorization_code registration each user authorizes)
	 * @param applicationRegistration The client credentials registration whose token the
	 * supervisor's own requests (connect, listings, probes, subscriptions) carry when the
	 * server acts for each user; none: they carry no token
	 * @param withoutUser What a request made for no user (a scheduled job) does when the
	 * server acts for each user: 'refuse' (it fails, naming why) or 'application' (it
	 * carries the application's identity)
	 * @param linkToModel Whether a tool call that needs its user to connect their account
	 * answers the model with the authorization URL, for the model to relay; otherwise the
	 * application shows it (McpUserAuthorizationRequiredEvent)
	 * @since 0.1.0
	 */
	public record OAuth(@Nullable String registration, @Nullable URI redirectUri, @Nullable String clientId,
			@Nullable String clientSecret, @Nullable URI clientMetadataDocument,
			@DefaultValue("mcp-supervisor") String clientName, @DefaultValue List<String> scopes,
			@Nullable GrantType grantType, @Nullable String issuer, @DefaultValue("application") ActsFor actsFor,
			@Nullable String applicationRegistration, @DefaultValue("refuse") WithoutUser withoutUser,
			@DefaultValue("false") Boolean linkToModel) {

		public OAuth {
			clientName = (clientName != null) ? clientName : "mcp-supervisor";
			scopes = (scopes != null) ? scopes : List.of();
			actsFor = (actsFor != null) ? actsFor : ActsFor.APPLICATION;
			withoutUser = (withoutUser != null) ? withoutUser : WithoutUser.REFUSE;
			linkToModel = (linkToModel != null) ? linkToModel : Boolean.FALSE;
		}

		/** No OAuth. */
		public static final OAuth NONE = new OAuth(null, null, null, null, null, "mcp-supervisor", List.of(), null,
				null, ActsFor.APPLICATION, null, WithoutUser.REFUSE, false);

		/**
		 * Returns whether each user's requests carry that user's own token.
		 * @return whether the server acts for each user
		 */
		public boolean isForUsers() {
			return this.actsFor == ActsFor.USER;
		}

		/**
		 * Returns whether the server's requests are authorized with OAuth.
		 * @return whether a registration or discovery is set
		 */
		public boolean isEnabled() {
			return this.registration != null || isDiscovered();
		}

		/**
		 * Returns whether the server's authorization is discovered from its first
		 * {@code 401}.
		 * @return whether discovery is set
		 */
		public boolean isDiscovered() {
			return this.registration == null
					&& (this.redirectUri != null || this.grantType == GrantType.CLIENT_CREDENTIALS);
		}

		@Override
		public String toString() {
			return "OAuth[registration=" + this.registration + ", redirectUri=" + this.redirectUri + ", clientId="
					+ this.clientId + ", clientSecret=" + ((this.clientSecret != null) ? "******" : null)
					+ ", clientMetadataDocument=" + this.clientMetadataDocument + ", clientName=" + this.clientName
					+ ", scopes=" + this.scopes + ", grantType=" + this.grantType + ", issuer=" + this.issuer
					+ ", actsFor=" + this.actsFor + ", applicationRegistration=" + this.applicationRegistration
					+ ", withoutUser=" + this.withoutUser + ", linkToModel=" + this.linkToModel + "]";
		}

		/**
		 * Whose token a server's requests carry.
		 */
		public enum ActsFor {

			/** The server's own: one authorization for everyone. */
			APPLICATION,

			/** Each user's own: each user connects their account. */
			USER

		}

		/**
		 * What a request made for no user does on a server that acts for each user.
		 */
		public enum WithoutUser {

			/** It fails, naming why. */
			REFUSE,

			/** It carries the application's identity. */
			APPLICATION

		}

		/**
		 * How a discovered authorization server gives tokens.
		 */
		public enum GrantType {

			/**
			 * A person authorizes, once; the refresh token keeps the server authorized.
			 */
			AUTHORIZATION_CODE,

			/** A service: the application's client id and secret. */
			CLIENT_CREDENTIALS

		}

	}

	/**
	 * The bounds of a server's elicitation requests ({@code elicitation/create}, form and
	 * URL), whatever handler answers them: a request over a bound is refused with a
	 * JSON-RPC error naming it, before any handler sees it.
	 *
	 * @param maxConcurrent Elicitation requests of one server that may be in flight at
	 * once
	 * @param maxPerMinute Elicitation requests of one server admitted per minute, as a
	 * bucket of that many that refills evenly over the minute
	 * @since 0.1.0
	 */
	public record Elicitation(@Nullable @Min(1) Integer maxConcurrent, @Nullable @Min(1) Integer maxPerMinute) {

	}

	/**
	 * The bounds of a server's sampling requests ({@code sampling/createMessage}),
	 * whatever handler answers them: a request over a bound is refused with a JSON-RPC
	 * error naming it, before any handler sees it.
	 *
	 * @param maxConcurrent Sampling requests of one server that may be in flight at once
	 * @param maxPerMinute Sampling requests of one server admitted per minute, as a
	 * bucket of that many that refills evenly over the minute
	 * @param maxTokens The most tokens a sampling request may ask for: a request that
	 * asks for more reaches the handler with this many
	 * @since 0.1.0
	 */
	public record Sampling(@Nullable @Min(1) Integer maxConcurrent, @Nullable @Min(1) Integer maxPerMinute,
			@Nullable @Min(1) Integer maxTokens) {

	}

	/**
	 * How tool calls behave around outages.
	 *
	 * @param waitForRecovery How long a call made while the server is starting or
	 * reconnecting waits for it (0: fail at once)
	 * @param retry Which calls are retried once on the next generation when the server
	 * dies under them: never, safe (read-only or idempotent tools, and retry-tools) or
	 * always; a retried call may have taken effect on the dead generation too
	 * (at-least-once)
	 * @param trustAnnotations Whether the tools' readOnlyHint and idempotentHint
	 * annotations make them safe to retry
	 * @param retryTools Tools (by their name on the server) that are safe to retry
	 * whatever their annotations say
	 * @param timeouts Timeouts of the calls of some tools, by the tool's name on the
	 * server (e.g. 'call.timeouts[run_code]=5m'), in place of request-timeout: a
	 * long-running tool may be given minutes while every other call keeps
	 * request-timeout; a name that no tool has is kept for a tool that may appear later
	 * @since 0.1.0
	 */
	public record Call(
			@Nullable @DurationMin(nanos = 0, message = "must not be negative") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration waitForRecovery,
			CallPolicy.@Nullable Retry retry, @Nullable Boolean trustAnnotations, @Nullable Set<String> retryTools,
			@DefaultValue Map<String, @DurationMin(nanos = 1, message = "must be positive") @DurationMax(
					days = MAX_DAYS, message = TOO_LONG) Duration> timeouts) {

		public Call {
			timeouts = (timeouts != null) ? timeouts : Map.of();
		}

	}

	/**
	 * The liveness probe of a connected server.
	 *
	 * @param interval Time between two pings (0 disables the probe)
	 * @param timeout How long a ping may take; also the probe of a call that timed out
	 * @param failureThreshold Unanswered pings in a row after which the server's process
	 * tree is killed and it is reconnected
	 * @since 0.1.0
	 */
	public record HealthCheck(
			@Nullable @DurationMin(nanos = 0, message = "must not be negative") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration interval,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration timeout,
			@Nullable @Min(1) Integer failureThreshold) {

	}

	/**
	 * How a lost server is reconnected.
	 *
	 * @param enabled Whether a lost server is reconnected automatically; when false it
	 * stays DISCONNECTED, its tools failing, until it is reset
	 * @param initialDelay Base of the exponential backoff: the delay before attempt 1 of
	 * the outage budget, doubling with each attempt; the start's attempt is attempt 1, so
	 * a server lost within max-delay of its start first waits twice this
	 * @param maxDelay Upper bound of the delay between attempts; also the stability
	 * window: a connection that stays up this long resets the attempt budget
	 * @param maxAttempts Attempts per outage before the server is given up (FAILED, tools
	 * withdrawn)
	 * @param jitter Fraction (0 to 1) of each delay by which it is randomly shifted
	 * @param cooldown How long a server given up after a spent budget waits before it
	 * tries again with a fresh budget (off unless enabled)
	 * @since 0.1.0
	 */
	public record Reconnect(@Nullable Boolean enabled,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration initialDelay,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration maxDelay,
			@Nullable @Min(1) Integer maxAttempts, @Nullable @DecimalMin("0.0") @DecimalMax("1.0") Double jitter,
			@DefaultValue @Valid Cooldown cooldown) {

		public Reconnect {
			cooldown = (cooldown != null) ? cooldown : new Cooldown(null, null, null);
		}

	}

	/**
	 * The cooldown of a server given up after a spent budget (FAILED): once it is over,
	 * the server tries again with a fresh budget. It doubles with each give-up in a row,
	 * up to max, and starts over when a connection stays up for the stability window or
	 * the server is reset. A server given up for a configuration error, or whose process
	 * tree could not be confirmed gone, has none.
	 *
	 * @param enabled Whether a server given up after a spent budget tries again with a
	 * fresh budget after its cooldown, instead of staying FAILED until it is reset
	 * @param initial Cooldown after the first give-up in a row, doubling with each one
	 * @param max Upper bound of the cooldown
	 * @since 0.1.0
	 */
	public record Cooldown(@Nullable Boolean enabled,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration initial,
			@Nullable @DurationMin(nanos = 1, message = "must be positive") @DurationMax(days = MAX_DAYS,
					message = TOO_LONG) Duration max) {

	}

	/**
	 * The warm standby of a stdio server: while the server is up, a second process of it
	 * is started and initialized, its tools listed, and kept ready without serving; when
	 * the serving process is lost or restarted, the ready spare serves at once and a new
	 * spare is started after the server's backoff, from its outage budget. It costs a
	 * second process per server, and suits stateless servers only: a server that keeps
	 * state in its process (a knowledge graph, an open browser, a shell session) loses it
	 * as it would on a restart, and its spare never had it.
	 *
	 * @param enabled Whether a spare process is kept ready, so that a lost server serves
	 * again without a cold start
	 * @since 0.1.0
	 */
	public record Standby(@Nullable Boolean enabled) {

	}

	/**
	 * Whether a server runs only while it is used. Stopping a server loses whatever it
	 * keeps in its process (an open browser, a shell session, a transaction): for servers
	 * whose every call stands alone only.
	 *
	 * @param startOnFirstUse Whether the server is started by its first call rather than
	 * with the application: until then its tools are listed from its catalog, the listing
	 * of its last run kept in the runtime directory for its configuration; a server
	 * without one is started once to list its tools
	 * @param timeout How long the server may go without a call before it is stopped, its
	 * tools kept listed and the next call starting it again; not set, or 0, never stops
	 * it
	 * @since 0.1.0
	 */
	public record Idle(@Nullable Boolean startOnFirstUse, @Nullable @DurationMin(nanos = 0,
			message = "must not be negative") @DurationMax(days = MAX_DAYS, message = TOO_LONG) Duration timeout) {

	}

	/**
	 * How changes of the servers' configuration are applied while the application runs:
	 * the files of {@code mcp.servers-configuration} are read again every interval, and a
	 * change is applied as {@code mcp.servers} would be at a start (servers added,
	 * removed, and restarted when their settings changed; the others untouched).
	 *
	 * @param enabled Whether the files of mcp.servers-configuration (those on the file
	 * system) are watched and their changes applied without a restart, and whether a
	 * Spring Cloud refresh that changes mcp.* is applied to the servers
	 * @param interval How often the files are read for changes: the longest delay between
	 * a change and its application
	 * @since 0.1.0
	 */
	public record Reload(@DefaultValue("true") boolean enabled, @DefaultValue("2s") @DurationMin(nanos = 1,
			message = "must be positive") @DurationMax(days = MAX_DAYS, message = TOO_LONG) Duration interval) {

	}

	/**
	 * Where the OAuth authorizations of the servers are kept: the requests that wait for
	 * a person, the clients registered dynamically, and the tokens.
	 *
	 * @param store Where they are kept: 'auto' (in the application's database when it has
	 * one DataSource, else in memory), 'jdbc' (the database; the application fails to
	 * start without one) or 'memory' (this JVM only: each replica and each start
	 * authorizes on its own)
	 * @param watchInterval How often a server that waits for a person looks in a shared
	 * store for an authorization completed through another replica
	 * @param jdbc The tables of the 'jdbc' store
	 * @since 0.1.0
	 */
	public record Authorization(@DefaultValue("auto") Store store, @DefaultValue("2s") @DurationMin(nanos = 1,
			message = "must be positive") @DurationMax(days = MAX_DAYS, message = TOO_LONG) Duration watchInterval,
			@DefaultValue @Valid Jdbc jdbc) {

		/** The values as nothing is set. */
		public static final Authorization DEFAULTS = new Authorization(Store.AUTO, Duration.ofSeconds(2),
				new Jdbc(SchemaInitialization.EMBEDDED, Jdbc.DEFAULT_SCHEMA, null));

		/**
		 * Where authorizations are kept.
		 *
		 * @since 0.1.0
		 */
		public enum Store {

			/**
			 * In the application's database when it has one DataSource, else in memory.
			 */
			AUTO,

			/** In the application's database. */
			JDBC,

			/** In this JVM's memory. */
			MEMORY

		}

		/**
		 * When the tables are created at a start, as Spring Boot's
		 * {@code DatabaseInitializationMode} has it.
		 *
		 * @since 0.1.0
		 */
		public enum SchemaInitialization {

			/** At every start (the scripts keep the tables that exist). */
			ALWAYS,

			/** At every start on an embedded database (H2, HSQLDB, Derby). */
			EMBEDDED,

			/**
			 * Never: the tables are the application's to create (Flyway, Liquibase).
			 */
			NEVER

		}

		/**
		 * The tables of the 'jdbc' store.
		 *
		 * @param initializeSchema When the tables are created: 'embedded' (on an embedded
		 * database), 'always' or 'never' (the application creates them, e.g. with Flyway
		 * or Liquibase from the same scripts)
		 * @param schema The script that creates them; '@@platform@@' stands for the
		 * database's platform (h2, postgresql)
		 * @param platform The platform in the script's name; default the one of the
		 * DataSource's driver
		 * @since 0.1.0
		 */
		public record Jdbc(@DefaultValue("embedded") SchemaInitialization initializeSchema,
				@DefaultValue(DEFAULT_SCHEMA) String schema, @Nullable String platform) {

			/** The scripts of the supported databases. */
			public static final String DEFAULT_SCHEMA = "classpath:io/github/mcpsupervisor/authorization/schema-@@platform@@.sql";

		}

	}

}
