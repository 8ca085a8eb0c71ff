package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BinaryOperator;
import java.util.function.Function;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import io.github.mcpsupervisor.authorization.McpAuthorizationRequest;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpAuthorizationState;
import io.github.mcpsupervisor.authorization.McpServerAuthorizations.McpServerAuthorization;
import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.McpServerState;
import io.github.mcpsupervisor.supervisor.McpServerStatus;
import io.github.mcpsupervisor.supervisor.McpServerStatus.ExitStatus;
import io.github.mcpsupervisor.supervisor.McpServerSupervisor;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus;
import io.github.mcpsupervisor.supervisor.McpStandbyStatus.McpStandbyState;
import io.github.mcpsupervisor.supervisor.McpSupervisors;
import io.github.mcpsupervisor.supervisor.McpSupervisors.SupervisedServer;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.ToolsWhenDown;
import io.github.mcpsupervisor.tool.McpToolNaming;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.Access;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;
import org.springframework.boot.actuate.endpoint.SanitizingFunction;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.WriteOperation;
import org.springframework.util.Assert;

/**
 * The {@code mcp} endpoint: every server's state and counters, one server in full (tools,
 * stderr, configuration with secrets sanitized), and the operator's actions {@code reset}
 * and {@code restart}. Read-only unless access is granted.
 *
 * @since 0.1.0
 */
@Endpoint(id = "mcp", defaultAccess = Access.READ_ONLY)
public class McpEndpoint {

	private final McpSupervisors supervisors;

	private final Function<String, @Nullable McpServerConfiguration> configurations;

	private final Sanitizer sanitizer;

	private final Show showValues;

	private final Clock clock;

	private final Function<String, Optional<McpServerAuthorization>> authorizations;

	/**
	 * Creates the endpoint.
	 * @param supervisors the supervised servers
	 * @param configurations the configuration of each server, by name ({@code null} for a
	 * server whose configuration is not known)
	 * @param sanitizingFunctions the functions that sanitize environment variables and
	 * headers when their values may be shown
	 * @param showValues when to show the values of environment variables and headers
	 * @param clock the clock of the supervisors
	 */
	public McpEndpoint(McpSupervisors supervisors, Function<String, @Nullable McpServerConfiguration> configurations,
			Iterable<SanitizingFunction> sanitizingFunctions, Show showValues, Clock clock) {
		this(supervisors, configurations, sanitizingFunctions, showValues, clock, (server) -> Optional.empty());
	}

	/**
	 * Creates the endpoint.
	 * @param supervisors the supervised servers
	 * @param configurations the configuration of each server, by name ({@code null} for a
	 * server whose configuration is not known)
	 * @param sanitizingFunctions the functions that sanitize environment variables and
	 * headers when their values may be shown
	 * @param showValues when to show the values of environment variables and headers
	 * @param clock the clock of the supervisors
	 * @param authorizations the OAuth authorization of each server that has one, by name
	 */
	public McpEndpoint(McpSupervisors supervisors, Function<String, @Nullable McpServerConfiguration> configurations,
			Iterable<SanitizingFunction> sanitizingFunctions, Show showValues, Clock clock,
			Function<String, Optional<McpServerAuthorization>> authorizations) {
		this.authorizations = authorizations;
		this.supervisors = supervisors;
		this.configurations = configurations;
		this.sanitizer = new Sanitizer(sanitizingFunctions);
		this.showValues = showValues;
		this.clock = clock;
	}

	/**
	 * Returns every server with its state and counters.
	 * @return the servers by name, in the order of their names
	 */
	@ReadOperation
	public McpServersDescriptor servers() {
		Map<String, McpServerDetails> servers = new LinkedHashMap<>();
		for (SupervisedServer server : this.supervisors.servers()) {
			McpServerStatus status = server.supervisor().status();
			servers.put(status.name(), McpServerDetails.of(status, server.required(), 0, this.clock,
					this.authorizations.apply(status.name()).orElse(null), true));
		}
		return new McpServersDescriptor(servers);
	}

	/**
	 * Returns one server in full.
	 * @param server the server's name
	 * @return the server
	 * @throws NoSuchElementException if there is no server of that name
	 */
	@ReadOperation
	public McpServerDescriptor server(@Selector String server) {
		return describe(server, this.showValues.isShown(true));
	}

	/**
	 * Acts on a server: {@code reset} clears its outage budget and connects now (on an UP
	 * server it only clears the budget); {@code restart} ends its live generation, even
	 * when up, and connects a new one.
	 * @param server the server's name
	 * @param action the action
	 * @return the server's state and counters after the action was taken
	 * @throws NoSuchElementException if there is no server of that name
	 */
	@WriteOperation
	public McpServerActionDescriptor act(@Selector String server, @Selector McpServerAction action) {
		SupervisedServer supervised = find(server);
		McpServerStatus status = switch (action) {
			case RESET -> supervised.supervisor().reset();
			case RESTART -> supervised.supervisor().restart();
		};
		return new McpServerActionDescriptor(status.name(), action.id(),
				McpServerDetails.of(status, supervised.required(), 0, this.clock));
	}

	// the web extension decides whether values may be shown from who asks
	McpServerDescriptor describe(String server, boolean showUnsanitized) {
		SupervisedServer supervised = find(server);
		McpServerStatus status = supervised.supervisor().status();
		McpServerConfiguration configuration = this.configurations.apply(server);
		return new McpServerDescriptor(status.name(),
				McpServerDetails.of(status, supervised.required(), Integer.MAX_VALUE, this.clock,
						this.authorizations.apply(status.name()).orElse(null), true),
				status.tools(), (configuration != null)
						? McpServerConfigurationDescriptor.of(configuration, this.sanitizer, showUnsanitized) : null);
	}

	// McpSupervisors owns the message that names an unknown server and the known ones
	private SupervisedServer find(String name) {
		McpServerSupervisor supervisor = this.supervisors.supervisor(name);
		return this.supervisors.servers()
			.stream()
			.filter((server) -> server.supervisor() == supervisor)
			.findFirst()
			.orElseThrow();
	}

	/**
	 * Every server with its state and counters.
	 *
	 * @param servers the servers by name, in the order of their names
	 */
	public record McpServersDescriptor(Map<String, McpServerDetails> servers) implements OperationResponseBody {

	}

	/**
	 * One server in full.
	 *
	 * @param name the server's name
	 * @param details its state and counters, every stderr line kept included
	 * @param toolNames the names of its registered tools
	 * @param configuration its configuration, secrets sanitized, if known
	 */
	@JsonInclude(Include.NON_NULL)
	public record McpServerDescriptor(String name, @JsonUnwrapped McpServerDetails details, List<String> toolNames,
			@Nullable McpServerConfigurationDescriptor configuration) implements OperationResponseBody {

	}

	/**
	 * A server after an operator's action was taken.
	 *
	 * @param name the server's name
	 * @param action the action, {@code reset} or {@code restart}
	 * @param details its state and counters
	 */
	public record McpServerActionDescriptor(String name, String action,
			@JsonUnwrapped McpServerDetails details) implements OperationResponseBody {

	}

	/**
	 * What an operator can do to a server through the {@code mcp} endpoint.
	 *
	 * @since 0.1.0
	 */
	public enum McpServerAction {

		/**
		 * Clear the outage budget and connect now; on an UP server, only clear the
		 * budget.
		 */
		RESET,

		/**
		 * End the live generation, even when it is up, and connect a new one with a fresh
		 * budget.
		 */
		RESTART;

		/**
		 * Returns the action as it appears in the endpoint's paths and answers.
		 * @return {@code reset} or {@code restart}
		 */
		public String id() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * The configuration of a server that the endpoint describes, secrets included: how
	 * the server is reached (exactly one of {@code stdio} and {@code streamableHttp}) and
	 * the policies it is supervised with.
	 *
	 * @param stdio how a stdio server is run
	 * @param streamableHttp how a streamable-http server is reached
	 * @param failOnStartupError whether the application fails to start when the server
	 * does not connect at its first attempt
	 * @param required whether the {@code mcp} health component is down while the server
	 * is not up
	 * @param reconnect how a lost server is reconnected
	 * @param call how tool calls behave around outages
	 * @param healthCheck the liveness probe
	 * @param origins where each inheritable setting comes from ({@code server},
	 * {@code defaults} or {@code built-in}), by its property name
	 * @param http the HTTP client settings of a streamable-http server
	 * @param toolNames how the server's tools are named for the model
	 * @param standby whether a stdio server keeps a warm standby
	 * @param protocol the MCP revision the server is spoken to in: {@code auto},
	 * {@code 2025-11-25} or {@code 2026-07-28}
	 * @param logLevel the lowest level of the log messages the server is asked to send,
	 * or {@code null}
	 * @param sampling the bounds of the server's sampling requests
	 * @param elicitation the bounds of the server's elicitation requests
	 * @param toolsWhenDown what becomes of the server's tools while it is down
	 * @param roots the roots offered to the server
	 * @param oauth how a streamable-http server's requests are authorized, or
	 * {@code null} without OAuth
	 * @since 0.1.0
	 */
	public record McpServerConfiguration(@Nullable StdioServerDefinition stdio,
			@Nullable StreamableHttpServerDefinition streamableHttp, boolean failOnStartupError, boolean required,
			ReconnectPolicy reconnect, CallPolicy call, HealthCheckPolicy healthCheck, Map<String, String> origins,
			McpServerConfigurationDescriptor.@Nullable Http http, McpToolNaming toolNames, boolean standby,
			String protocol, @Nullable String logLevel, McpServerConfigurationDescriptor.Sampling sampling,
			McpServerConfigurationDescriptor.Elicitation elicitation, ToolsWhenDown toolsWhenDown, List<URI> roots,
			McpServerConfigurationDescriptor.@Nullable OAuth oauth) {

		public McpServerConfiguration {
			origins = Map.copyOf(origins);
			roots = List.copyOf(roots);
			Assert.isTrue((stdio == null) != (streamableHttp == null),
					"Exactly one of 'stdio' and 'streamableHttp' must be given");
		}

	}

	/**
	 * A server's configuration as the endpoint shows it: the values of environment
	 * variables and headers, of secret-looking arguments, and the user information and
	 * query parameter values of the URL sanitized (see {@link ConfigurationSanitizer});
	 * the properties that do not apply to its transport left out.
	 *
	 * @param transport {@code stdio} or {@code streamable-http}
	 * @param command the command of a stdio server
	 * @param args the arguments of the command, the values of secret-looking ones
	 * sanitized
	 * @param url the MCP endpoint of a streamable-http server, its user information and
	 * query parameter values sanitized
	 * @param workingDirectory the working directory of a stdio server, when set
	 * @param requestTimeout the timeout of each request
	 * @param initializationTimeout the timeout of the initialize handshake
	 * @param terminationGracePeriod how long a stdio server may take to exit
	 * @param failOnStartupError whether the application fails to start without the server
	 * @param required whether the health component is down while the server is not up
	 * @param reconnect how a lost server is reconnected
	 * @param call how tool calls behave around outages
	 * @param healthCheck the liveness probe
	 * @param env the environment variables of a stdio server, sanitized
	 * @param headers the headers sent to a streamable-http server, sanitized
	 * @param origins where each inheritable setting comes from: {@code server},
	 * {@code defaults} or {@code built-in}
	 * @param http the HTTP client settings of a streamable-http server
	 * @param toolNames how the server's tools are named for the model: {@code prefixed}
	 * or {@code spring-ai}
	 * @param standby whether a stdio server keeps a warm standby (absent for a
	 * streamable-http server)
	 * @param inheritEnv the variables of the application's environment that a stdio
	 * server inherits besides those every process needs (absent for a streamable-http
	 * server)
	 * @param protocol the MCP revision the server is spoken to in: {@code auto},
	 * {@code 2025-11-25} or {@code 2026-07-28}
	 * @param logLevel the lowest level of the log messages the server is asked to send,
	 * when set
	 * @param sampling the bounds of the server's sampling requests
	 * @param elicitation the bounds of the server's elicitation requests
	 * @param toolsWhenDown what becomes of the server's tools while it is down:
	 * {@code withdraw} or {@code keep}
	 * @param roots the roots offered to the server
	 * @param oauth how a streamable-http server's requests are authorized, when they are:
	 * its client secret sanitized
	 * @since 0.1.0
	 */
	@JsonInclude(Include.NON_NULL)
	public record McpServerConfigurationDescriptor(String transport, @Nullable String command,
			@Nullable List<String> args, @Nullable String url, @Nullable String workingDirectory,
			Duration requestTimeout, Duration initializationTimeout, @Nullable Duration terminationGracePeriod,
			boolean failOnStartupError, boolean required, Reconnect reconnect, Call call, HealthCheck healthCheck,
			@Nullable Map<String, @Nullable Object> env, @Nullable Map<String, @Nullable Object> headers,
			Map<String, String> origins, @Nullable Http http, String toolNames, @Nullable Boolean standby,
			@Nullable List<String> inheritEnv, String protocol, @Nullable String logLevel, Sampling sampling,
			Elicitation elicitation, String toolsWhenDown, List<String> roots, @Nullable OAuth oauth) {

		/**
		 * Describes a server's configuration.
		 * @param configuration the configuration, secrets included
		 * @param sanitizer sanitizes the values of environment variables and headers,
		 * each by its name
		 * @param showUnsanitized whether those values may be shown unsanitized
		 * @return the descriptor
		 */
		static McpServerConfigurationDescriptor of(McpServerConfiguration configuration, Sanitizer sanitizer,
				boolean showUnsanitized) {
			StdioServerDefinition stdio = configuration.stdio();
			if (stdio != null) {
				return new McpServerConfigurationDescriptor("stdio", stdio.command(),
						ConfigurationSanitizer.sanitizeArgs(stdio.args(), values(sanitizer, showUnsanitized)), null,
						(stdio.workingDirectory() != null) ? stdio.workingDirectory().toString() : null,
						stdio.requestTimeout(), stdio.initializationTimeout(), stdio.terminationGracePeriod(),
						configuration.failOnStartupError(), configuration.required(),
						Reconnect.of(configuration.reconnect()), Call.of(configuration.call(), stdio.toolTimeouts()),
						HealthCheck.of(configuration.healthCheck()), sanitize(stdio.env(), sanitizer, showUnsanitized),
						null, new TreeMap<>(configuration.origins()), null, toolNames(configuration),
						configuration.standby(), stdio.inheritEnv(), configuration.protocol(), configuration.logLevel(),
						configuration.sampling(), configuration.elicitation(), dashed(configuration.toolsWhenDown()),
						roots(configuration), null);
			}
			StreamableHttpServerDefinition http = configuration.streamableHttp();
			return new McpServerConfigurationDescriptor("streamable-http", null, null,
					ConfigurationSanitizer.sanitizeUrl(http.url(), values(sanitizer, showUnsanitized)), null,
					http.requestTimeout(), http.initializationTimeout(), null, configuration.failOnStartupError(),
					configuration.required(), Reconnect.of(configuration.reconnect()),
					Call.of(configuration.call(), http.toolTimeouts()), HealthCheck.of(configuration.healthCheck()),
					null, sanitize(http.headers(), sanitizer, showUnsanitized), new TreeMap<>(configuration.origins()),
					configuration.http(), toolNames(configuration), null, null, configuration.protocol(),
					configuration.logLevel(), configuration.sampling(), configuration.elicitation(),
					dashed(configuration.toolsWhenDown()), roots(configuration),
					oauth(configuration.oauth(), sanitizer, showUnsanitized));
		}

		private static String toolNames(McpServerConfiguration configuration) {
			return dashed(configuration.toolNames());
		}

		private static String dashed(Enum<?> value) {
			return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
		}

		private static List<String> roots(McpServerConfiguration configuration) {
			return configuration.roots().stream().map(URI::toString).toList();
		}

		// the client secret as the values of environment variables and headers are
		private static @Nullable OAuth oauth(@Nullable OAuth oauth, Sanitizer sanitizer, boolean showUnsanitized) {
			if (oauth == null || oauth.clientSecret() == null) {
				return oauth;
			}
			Object secret = sanitizer.sanitize(new SanitizableData(null, "client-secret", oauth.clientSecret()),
					showUnsanitized);
			return new OAuth(oauth.registration(), oauth.redirectUri(), oauth.clientId(), String.valueOf(secret),
					oauth.clientMetadataDocument(), oauth.clientName(), oauth.scopes(), oauth.grantType(),
					oauth.issuer(), oauth.actsFor(), oauth.applicationRegistration(), oauth.withoutUser(),
					oauth.linkToModel());
		}

		// The values that a command line or a URL holds, each sanitized by its key (the
		// argument's or query parameter's name) like an environment variable.
		private static BinaryOperator<String> values(Sanitizer sanitizer, boolean showUnsanitized) {
			return (key, value) -> String
				.valueOf(sanitizer.sanitize(new SanitizableData(null, key, value), showUnsanitized));
		}

		private static Map<String, @Nullable Object> sanitize(Map<String, String> values, Sanitizer sanitizer,
				boolean showUnsanitized) {
			Map<String, @Nullable Object> sanitized = new TreeMap<>();
			values.forEach((name, value) -> sanitized.put(name,
					sanitizer.sanitize(new SanitizableData(null, name, value), showUnsanitized)));
			return sanitized;
		}

		/**
		 * The HTTP client settings of a streamable-http server.
		 *
		 * @param connectTimeout the timeout of establishing each connection
		 * @param version the HTTP version of the requests: {@code http-1-1} or
		 * {@code http-2}
		 * @param sslBundle the SSL bundle of the TLS connections, when set
		 * @param proxyHost the host of the HTTP proxy, when set
		 * @param proxyPort the port of the HTTP proxy, when set
		 */
		@JsonInclude(Include.NON_NULL)
		public record Http(Duration connectTimeout, String version, @Nullable String sslBundle,
				@Nullable String proxyHost, @Nullable Integer proxyPort) {

		}

		/**
		 * How a lost server is reconnected.
		 *
		 * @param enabled whether a lost server is reconnected automatically
		 * @param initialDelay the delay before the first attempt of an outage
		 * @param maxDelay the upper bound of the delay, and the stability window
		 * @param maxAttempts the attempts per outage
		 * @param jitter the fraction of each delay by which it is randomly shifted
		 * @param cooldown how long a server given up after a spent budget waits before it
		 * tries again
		 */
		public record Reconnect(boolean enabled, Duration initialDelay, Duration maxDelay, int maxAttempts,
				double jitter, ReconnectPolicy.Cooldown cooldown) {

			static Reconnect of(ReconnectPolicy policy) {
				return new Reconnect(policy.enabled(), policy.initialDelay(), policy.maxDelay(), policy.maxAttempts(),
						policy.jitter(), policy.cooldown());
			}

		}

		/**
		 * How tool calls behave around outages.
		 *
		 * @param waitForRecovery how long a call waits for a recovering server
		 * @param retry which calls are retried: {@code never}, {@code safe} or
		 * {@code always}
		 * @param trustAnnotations whether the tools' annotations make them safe to retry
		 * @param retryTools the tools that are safe to retry whatever their annotations
		 * say
		 * @param timeouts the timeouts of the calls of some tools, by the tool's name on
		 * the server, in place of the request timeout
		 */
		public record Call(Duration waitForRecovery, String retry, boolean trustAnnotations, List<String> retryTools,
				Map<String, Duration> timeouts) {

			static Call of(CallPolicy policy, Map<String, Duration> timeouts) {
				return new Call(policy.waitForRecovery(), policy.retry().name().toLowerCase(Locale.ROOT),
						policy.trustAnnotations(), policy.retryTools().stream().sorted().toList(),
						new TreeMap<>(timeouts));
			}

		}

		/**
		 * The liveness probe of a connected server.
		 *
		 * @param interval the time between two pings ({@code PT0S}: disabled)
		 * @param timeout how long a ping may take
		 * @param failureThreshold the unanswered pings in a row after which the server is
		 * reconnected
		 */
		public record HealthCheck(Duration interval, Duration timeout, int failureThreshold) {

			static HealthCheck of(HealthCheckPolicy policy) {
				return new HealthCheck(policy.interval(), policy.timeout(), policy.failureThreshold());
			}

		}

		/**
		 * The bounds of a server's sampling requests.
		 *
		 * @param maxConcurrent the requests that may be in flight at once
		 * @param maxPerMinute the requests admitted per minute
		 * @param maxTokens the most tokens a request may ask for
		 */
		public record Sampling(int maxConcurrent, int maxPerMinute, int maxTokens) {

		}

		/**
		 * The bounds of a server's elicitation requests.
		 *
		 * @param maxConcurrent the requests that may be in flight at once
		 * @param maxPerMinute the requests admitted per minute
		 */
		public record Elicitation(int maxConcurrent, int maxPerMinute) {

		}

		/**
		 * How a streamable-http server's requests are authorized with OAuth.
		 *
		 * @param registration the Spring Security client registration, when one is used
		 * @param redirectUri where the discovered authorization server sends a person
		 * back, when set
		 * @param clientId the client the discovered authorization server gave, when set
		 * @param clientSecret its secret, sanitized, when set
		 * @param clientMetadataDocument the URL of the Client ID Metadata Document, when
		 * set
		 * @param clientName the name of a client registered dynamically
		 * @param scopes the scopes asked for
		 * @param grantType {@code authorization-code} or {@code client-credentials}, when
		 * set
		 * @param issuer the issuer of the authorization server that gave the client, when
		 * set
		 * @param actsFor {@code user} when each user's requests carry that user's token
		 * @param applicationRegistration the registration of the supervisor's own
		 * requests, when the server acts for each user and has one
		 * @param withoutUser what a request made for no user does, when the server acts
		 * for each user: {@code refuse} or {@code application}
		 * @param linkToModel whether the model is given the URL that connects a user's
		 * account, when the server acts for each user
		 */
		@JsonInclude(Include.NON_NULL)
		public record OAuth(@Nullable String registration, @Nullable String redirectUri, @Nullable String clientId,
				@Nullable String clientSecret, @Nullable String clientMetadataDocument, String clientName,
				List<String> scopes, @Nullable String grantType, @Nullable String issuer, @Nullable String actsFor,
				@Nullable String applicationRegistration, @Nullable String withoutUser, @Nullable Boolean linkToModel) {

			public OAuth(@Nullable String registration, @Nullable String redirectUri, @Nullable String clientId,
					@Nullable String clientSecret, @Nullable String clientMetadataDocument, String clientName,
					List<String> scopes, @Nullable String grantType, @Nullable String issuer) {
				this(registration, redirectUri, clientId, clientSecret, clientMetadataDocument, clientName, scopes,
						grantType, issuer, null, null, null, null);
			}

		}

	}

	/**
	 * A server's state and counters as the health component and the endpoint show them:
	 * absent values are left out, durations are ISO-8601.
	 *
	 * @param state the server's state
	 * @param required whether the {@code mcp} health component is down while the server
	 * is not up
	 * @param generation the current (or last) generation
	 * @param pid the pid of the live generation's process
	 * @param uptime how long the live generation has been up
	 * @param attempts the attempts used in the current outage
	 * @param maxAttempts the attempts allowed per outage
	 * @param nextAttemptIn how long until the next attempt, while one is pending
	 * @param lastExit how the last generation's process ended
	 * @param lastError the last error
	 * @param stderr the last lines the server wrote to stderr
	 * @param tools how many tools are registered
	 * @param protocol the MCP revision the live generation speaks (2025-11-25 or
	 * 2026-07-28), absent while none is connected
	 * @param authorization the authorization a person must give, while one is awaited
	 * (endpoint only: whoever opens its URL first authorizes the server as themselves)
	 * @param oauth where the server's OAuth authorization is kept and when its token was
	 * last renewed, for a server that has one (never a token)
	 * @param cooldown the cooldown a FAILED server waits out before it tries again with a
	 * fresh outage budget ({@code nextAttemptIn} is what is left of it), absent when no
	 * attempt is planned
	 * @param standby the server's warm standby, absent when it keeps none
	 * @since 0.1.0
	 */
	@JsonInclude(Include.NON_NULL)
	public record McpServerDetails(McpServerState state, boolean required, int generation, @Nullable Long pid,
			@Nullable Duration uptime, int attempts, int maxAttempts, @Nullable Duration nextAttemptIn,
			@Nullable Exit lastExit, @Nullable String lastError, @Nullable List<String> stderr, int tools,
			@Nullable String protocol, @Nullable Authorization authorization, @Nullable OAuth oauth,
			@Nullable Duration cooldown, @Nullable Standby standby) {

		/** Stderr lines shown in health details. */
		static final int HEALTH_STDERR_LINES = 5;

		/**
		 * Describes a server's state and counters.
		 * @param status the server's status
		 * @param required whether the server is required
		 * @param stderrLines how many of the last stderr lines to show (none when 0)
		 * @param clock the clock of the supervisor
		 * @return the details
		 */
		static McpServerDetails of(McpServerStatus status, boolean required, int stderrLines, Clock clock) {
			return of(status, required, stderrLines, clock, null, false);
		}

		/**
		 * Describes a server's state and counters, and its OAuth authorization.
		 * @param status the server's status
		 * @param required whether the server is required
		 * @param stderrLines how many of the last stderr lines to show (none when 0)
		 * @param clock the clock of the supervisor
		 * @param oauth the server's OAuth authorization, if it has one
		 * @param showAwaited whether to show the request a person must answer (its URL
		 * authorizes whoever opens it first)
		 * @return the details
		 */
		static McpServerDetails of(McpServerStatus status, boolean required, int stderrLines, Clock clock,
				@Nullable McpServerAuthorization oauth, boolean showAwaited) {
			McpAuthorizationRequest authorization = (oauth != null && showAwaited) ? awaited(oauth) : null;
			Instant now = clock.instant();
			Duration uptime = (status.upSince() != null) ? Duration.between(status.upSince(), now) : null;
			Duration nextAttemptIn = (status.nextAttemptAt() != null) ? until(now, status.nextAttemptAt()) : null;
			Exit lastExit = (status.lastExit() != null) ? Exit.of(status.lastExit()) : null;
			List<String> stderr = status.stderrTail();
			List<String> shown = (stderr.isEmpty() || stderrLines <= 0) ? null
					: List.copyOf(stderr.subList(Math.max(0, stderr.size() - stderrLines), stderr.size()));
			return new McpServerDetails(status.state(), required, status.generation(), status.pid(), uptime,
					status.attemptsUsed(), status.maxAttempts(), nextAttemptIn, lastExit, status.lastError(), shown,
					status.tools().size(), status.protocol(),
					(authorization != null) ? Authorization.of(authorization, now) : null, oauth(oauth, now),
					status.cooldown(), (status.standby() != null) ? Standby.of(status.standby(), now) : null);
		}

		/**
		 * Returns these details as a server's health details: the entries of this
		 * record's JSON, in the same order, absent values left out.
		 * @return the details by name
		 */
		Map<String, Object> asMap() {
			Map<String, Object> details = new LinkedHashMap<>();
			details.put("state", this.state);
			details.put("required", this.required);
			details.put("generation", this.generation);
			putIfPresent(details, "pid", this.pid);
			putIfPresent(details, "uptime", this.uptime);
			details.put("attempts", this.attempts);
			details.put("maxAttempts", this.maxAttempts);
			putIfPresent(details, "nextAttemptIn", this.nextAttemptIn);
			putIfPresent(details, "lastExit", this.lastExit);
			putIfPresent(details, "lastError", this.lastError);
			putIfPresent(details, "stderr", this.stderr);
			details.put("tools", this.tools);
			putIfPresent(details, "protocol", this.protocol);
			putIfPresent(details, "authorization", this.authorization);
			putIfPresent(details, "oauth", this.oauth);
			putIfPresent(details, "cooldown", this.cooldown);
			putIfPresent(details, "standby", this.standby);
			return details;
		}

		// A store that cannot be read now (a database the replicas share) leaves the
		// request and the token's times out: health and the endpoint answer whatever the
		// store does.
		private static @Nullable McpAuthorizationRequest awaited(McpServerAuthorization oauth) {
			try {
				return oauth.pending().orElse(null);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}

		private static @Nullable OAuth oauth(@Nullable McpServerAuthorization oauth, Instant now) {
			if (oauth == null) {
				return null;
			}
			try {
				return OAuth.of(oauth.state(), now);
			}
			catch (RuntimeException ex) {
				return null;
			}
		}

		private static void putIfPresent(Map<String, Object> details, String name, @Nullable Object value) {
			if (value != null) {
				details.put(name, value);
			}
		}

		private static Duration until(Instant now, Instant then) {
			Duration until = Duration.between(now, then);
			return until.isNegative() ? Duration.ZERO : until;
		}

		/**
		 * A server's warm standby: its spare, and the spare's own budget.
		 *
		 * @param state the standby's state
		 * @param generation the spare's generation, while one starts or is ready
		 * @param pid the pid of the spare's process, once spawned
		 * @param attempts the spare attempts used since the standby's budget was last
		 * reset
		 * @param maxAttempts the standby's budget
		 * @param nextAttemptIn how long until the next spare starts, while backing off
		 * @param lastError why the last spare failed or ended
		 * @param promotions how many spares became the serving generation
		 */
		@JsonInclude(Include.NON_NULL)
		public record Standby(McpStandbyState state, @Nullable Integer generation, @Nullable Long pid, int attempts,
				int maxAttempts, @Nullable Duration nextAttemptIn, @Nullable String lastError, long promotions) {

			static Standby of(McpStandbyStatus standby, Instant now) {
				return new Standby(standby.state(), standby.generation(), standby.pid(), standby.attemptsUsed(),
						standby.maxAttempts(),
						(standby.nextAttemptAt() != null) ? until(now, standby.nextAttemptAt()) : null,
						standby.lastError(), standby.promotions());
			}

		}

		/**
		 * An authorization a person must give.
		 *
		 * @param uri the authorization server's URL to open in that person's browser
		 * @param scopes the scopes asked for
		 * @param expiresIn how long the request is accepted
		 */
		public record Authorization(URI uri, List<String> scopes, Duration expiresIn) {

			static Authorization of(McpAuthorizationRequest request, Instant now) {
				return new Authorization(request.authorizationUri(), request.scopes(), until(now, request.expiresAt()));
			}

		}

		/**
		 * Where a server's OAuth authorization is kept, and its token's times.
		 *
		 * @param store {@code memory} (this JVM only) or {@code jdbc} (the database the
		 * application's replicas share)
		 * @param renewedAt when the current access token was issued, by whichever replica
		 * obtained it
		 * @param tokenExpiresIn how long the current access token is valid
		 * @param refreshable whether a refresh token renews it without a person
		 */
		@JsonInclude(Include.NON_NULL)
		public record OAuth(String store, @Nullable Instant renewedAt, @Nullable Duration tokenExpiresIn,
				boolean refreshable) {

			static OAuth of(McpAuthorizationState state, Instant now) {
				return new OAuth(state.store(), state.renewedAt(),
						(state.expiresAt() != null) ? until(now, state.expiresAt()) : null, state.refreshable());
			}

		}

		/**
		 * How a server's process ended.
		 *
		 * @param code the exit code
		 * @param signal the signal that ended it, if the exit code says so
		 * @param description the exit described, e.g. {@code exit code 137 (signal 9,
		 * SIGKILL)}
		 */
		@JsonInclude(Include.NON_NULL)
		public record Exit(int code, @Nullable Integer signal, String description) {

			static Exit of(ExitStatus exit) {
				return new Exit(exit.exitCode(), exit.signal(), exit.describe());
			}

		}

	}

}
