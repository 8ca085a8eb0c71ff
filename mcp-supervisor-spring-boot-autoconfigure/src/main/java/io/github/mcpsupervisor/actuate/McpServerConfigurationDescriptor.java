package io.github.mcpsupervisor.actuate;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BinaryOperator;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonInclude.Include;
import io.github.mcpsupervisor.internal.ConfigurationSanitizer;
import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.ElicitationLimits;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.supervisor.SamplingLimits;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.SanitizableData;
import org.springframework.boot.actuate.endpoint.Sanitizer;

/**
 * A server's configuration as the endpoint shows it: the values of environment variables
 * and headers, of secret-looking arguments, and the user information and query parameter
 * values of the URL sanitized (see {@link ConfigurationSanitizer}); the properties that
 * do not apply to its transport left out.
 *
 * @param transport {@code stdio} or {@code streamable-http}
 * @param command the command of a stdio server
 * @param args the arguments of the command, the values of secret-looking ones sanitized
 * @param url the MCP endpoint of a streamable-http server, its user information and query
 * parameter values sanitized
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
 * @param toolNames how the server's tools are named for the model: {@code prefixed} or
 * {@code spring-ai}
 * @param standby whether a stdio server keeps a warm standby (absent for a
 * streamable-http server)
 * @param inheritEnv the variables of the application's environment that a stdio server
 * inherits besides those every process needs (absent for a streamable-http server)
 * @param protocol the MCP revision the server is spoken to in: {@code auto},
 * {@code 2025-11-25} or {@code 2026-07-28}
 * @param logLevel the lowest level of the log messages the server is asked to send, when
 * set
 * @param sampling the bounds of the server's sampling requests
 * @param elicitation the bounds of the server's elicitation requests
 * @param toolsWhenDown what becomes of the server's tools while it is down:
 * {@code withdraw} or {@code keep}
 * @param roots the roots offered to the server
 * @param oauth how a streamable-http server's requests are authorized, when they are: its
 * client secret sanitized
 * @since 0.1.0
 */
@JsonInclude(Include.NON_NULL)
public record McpServerConfigurationDescriptor(String transport, @Nullable String command, @Nullable List<String> args,
		@Nullable String url, @Nullable String workingDirectory, Duration requestTimeout,
		Duration initializationTimeout, @Nullable Duration terminationGracePeriod, boolean failOnStartupError,
		boolean required, Reconnect reconnect, Call call, HealthCheck healthCheck,
		@Nullable Map<String, @Nullable Object> env, @Nullable Map<String, @Nullable Object> headers,
		Map<String, String> origins, @Nullable Http http, String toolNames, @Nullable Boolean standby,
		@Nullable List<String> inheritEnv, String protocol, @Nullable String logLevel, Sampling sampling,
		Elicitation elicitation, String toolsWhenDown, List<String> roots, @Nullable OAuth oauth) {

	/**
	 * Describes a server's configuration.
	 * @param configuration the configuration, secrets included
	 * @param sanitizer sanitizes the values of environment variables and headers, each by
	 * its name
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
					Sampling.of(configuration.sampling()), Elicitation.of(configuration.elicitation()),
					dashed(configuration.toolsWhenDown()), roots(configuration), null);
		}
		StreamableHttpServerDefinition http = configuration.streamableHttp();
		return new McpServerConfigurationDescriptor("streamable-http", null, null,
				ConfigurationSanitizer.sanitizeUrl(http.url(), values(sanitizer, showUnsanitized)), null,
				http.requestTimeout(), http.initializationTimeout(), null, configuration.failOnStartupError(),
				configuration.required(), Reconnect.of(configuration.reconnect()),
				Call.of(configuration.call(), http.toolTimeouts()), HealthCheck.of(configuration.healthCheck()), null,
				sanitize(http.headers(), sanitizer, showUnsanitized), new TreeMap<>(configuration.origins()),
				configuration.http(), toolNames(configuration), null, null, configuration.protocol(),
				configuration.logLevel(), Sampling.of(configuration.sampling()),
				Elicitation.of(configuration.elicitation()), dashed(configuration.toolsWhenDown()),
				roots(configuration), oauth(configuration.oauth(), sanitizer, showUnsanitized));
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
				oauth.clientMetadataDocument(), oauth.clientName(), oauth.scopes(), oauth.grantType(), oauth.issuer());
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
	 * @param version the HTTP version of the requests: {@code http-1-1} or {@code http-2}
	 * @param sslBundle the SSL bundle of the TLS connections, when set
	 * @param proxyHost the host of the HTTP proxy, when set
	 * @param proxyPort the port of the HTTP proxy, when set
	 */
	@JsonInclude(Include.NON_NULL)
	public record Http(Duration connectTimeout, String version, @Nullable String sslBundle, @Nullable String proxyHost,
			@Nullable Integer proxyPort) {

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
	public record Reconnect(boolean enabled, Duration initialDelay, Duration maxDelay, int maxAttempts, double jitter,
			ReconnectPolicy.Cooldown cooldown) {

		static Reconnect of(ReconnectPolicy policy) {
			return new Reconnect(policy.enabled(), policy.initialDelay(), policy.maxDelay(), policy.maxAttempts(),
					policy.jitter(), policy.cooldown());
		}

	}

	/**
	 * How tool calls behave around outages.
	 *
	 * @param waitForRecovery how long a call waits for a recovering server
	 * @param retry which calls are retried: {@code never}, {@code safe} or {@code always}
	 * @param trustAnnotations whether the tools' annotations make them safe to retry
	 * @param retryTools the tools that are safe to retry whatever their annotations say
	 * @param timeouts the timeouts of the calls of some tools, by the tool's name on the
	 * server, in place of the request timeout
	 */
	public record Call(Duration waitForRecovery, String retry, boolean trustAnnotations, List<String> retryTools,
			Map<String, Duration> timeouts) {

		static Call of(CallPolicy policy, Map<String, Duration> timeouts) {
			return new Call(policy.waitForRecovery(), policy.retry().name().toLowerCase(Locale.ROOT),
					policy.trustAnnotations(), policy.retryTools().stream().sorted().toList(), new TreeMap<>(timeouts));
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

		static Sampling of(SamplingLimits limits) {
			return new Sampling(limits.maxConcurrent(), limits.maxPerMinute(), limits.maxTokens());
		}

	}

	/**
	 * The bounds of a server's elicitation requests.
	 *
	 * @param maxConcurrent the requests that may be in flight at once
	 * @param maxPerMinute the requests admitted per minute
	 */
	public record Elicitation(int maxConcurrent, int maxPerMinute) {

		static Elicitation of(ElicitationLimits limits) {
			return new Elicitation(limits.maxConcurrent(), limits.maxPerMinute());
		}

	}

	/**
	 * How a streamable-http server's requests are authorized with OAuth.
	 *
	 * @param registration the Spring Security client registration, when one is used
	 * @param redirectUri where the discovered authorization server sends a person back,
	 * when set
	 * @param clientId the client the discovered authorization server gave, when set
	 * @param clientSecret its secret, sanitized, when set
	 * @param clientMetadataDocument the URL of the Client ID Metadata Document, when set
	 * @param clientName the name of a client registered dynamically
	 * @param scopes the scopes asked for
	 * @param grantType {@code authorization-code} or {@code client-credentials}, when set
	 * @param issuer the issuer of the authorization server that gave the client, when set
	 */
	@JsonInclude(Include.NON_NULL)
	public record OAuth(@Nullable String registration, @Nullable String redirectUri, @Nullable String clientId,
			@Nullable String clientSecret, @Nullable String clientMetadataDocument, String clientName,
			List<String> scopes, @Nullable String grantType, @Nullable String issuer) {

	}

}
