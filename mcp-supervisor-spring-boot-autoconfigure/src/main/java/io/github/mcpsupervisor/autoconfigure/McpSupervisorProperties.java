package io.github.mcpsupervisor.autoconfigure;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.mcpsupervisor.supervisor.CallPolicy;
import io.github.mcpsupervisor.supervisor.HealthCheckPolicy;
import io.github.mcpsupervisor.supervisor.ReconnectPolicy;
import io.github.mcpsupervisor.transport.StdioServerDefinition;
import io.github.mcpsupervisor.transport.StreamableHttpServerDefinition;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Pattern;
import org.hibernate.validator.constraints.time.DurationMin;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * Configuration of the supervised MCP servers ({@code mcp.servers[*]}). Unknown keys are
 * rejected.
 *
 * @param servers the MCP servers to supervise
 */
@ConfigurationProperties(prefix = "mcp", ignoreUnknownFields = false)
@Validated
@UniqueServerNames
public record McpSupervisorProperties(@DefaultValue @Valid List<Server> servers) {

	/**
	 * One supervised MCP server.
	 *
	 * @param name unique name of the server: 1 to 32 letters, digits, '_' or '-'; the
	 * prefix of its tool names
	 * @param transport how to reach the server: 'stdio' (a child process) or
	 * 'streamable-http'
	 * @param command the executable that starts a stdio server (required for stdio)
	 * @param args the arguments of the command
	 * @param env environment variables added to those the application inherits
	 * @param workingDirectory working directory of the server process (must exist);
	 * default the application's
	 * @param url the MCP endpoint of a streamable-http server, an absolute http or https
	 * URL (required for streamable-http)
	 * @param headers HTTP headers sent with every request to a streamable-http server
	 * (e.g. Authorization); their values are masked wherever they are shown
	 * @param requestTimeout timeout of each request to the server
	 * @param initializationTimeout timeout of the initialize handshake of each connection
	 * attempt
	 * @param terminationGracePeriod how long the server may take to exit after its stdin
	 * is closed and SIGTERM sent, before its whole process tree is killed
	 * @param failOnStartupError whether the application fails to start when this server
	 * does not connect at its first attempt
	 * @param required whether the 'mcp' health component is DOWN while this server is not
	 * UP; an optional server's failure shows in the details only
	 * @param reconnect how a lost server is reconnected
	 * @param call how tool calls behave around outages
	 * @param healthCheck the liveness probe of a connected server
	 */
	@ValidServer
	public record Server(
			@NotBlank @Pattern(regexp = "[A-Za-z0-9_-]{1,32}",
					message = "must be 1 to 32 letters, digits, '_' or '-'") @Nullable String name,
			@DefaultValue("stdio") McpTransportType transport, @Nullable String command,
			@DefaultValue List<String> args, @DefaultValue Map<String, String> env, @Nullable Path workingDirectory,
			@Nullable URI url, @DefaultValue Map<String, String> headers,
			@DefaultValue("20s") @DurationMin(nanos = 1, message = "must be positive") Duration requestTimeout,
			@DefaultValue("20s") @DurationMin(nanos = 1, message = "must be positive") Duration initializationTimeout,
			@DefaultValue("2s") @DurationMin(nanos = 1, message = "must be positive") Duration terminationGracePeriod,
			@DefaultValue("false") boolean failOnStartupError, @DefaultValue("false") boolean required,
			@DefaultValue @Valid Reconnect reconnect, @DefaultValue @Valid Call call,
			@DefaultValue @Valid HealthCheck healthCheck) {

		/**
		 * Returns how to reach this server over Streamable HTTP.
		 * @return the definition
		 */
		public StreamableHttpServerDefinition toHttpDefinition() {
			return new StreamableHttpServerDefinition(String.valueOf(this.name),
					java.util.Objects.requireNonNull(this.url), this.headers, this.requestTimeout,
					this.initializationTimeout);
		}

		/**
		 * Returns how to run this server as a stdio process.
		 * @return the definition
		 */
		public StdioServerDefinition toStdioDefinition() {
			return new StdioServerDefinition(String.valueOf(this.name), String.valueOf(this.command), this.args,
					this.env, this.workingDirectory, this.requestTimeout, this.initializationTimeout,
					this.terminationGracePeriod);
		}

	}

	/**
	 * How tool calls behave around outages.
	 *
	 * @param waitForRecovery how long a call made while the server is starting or
	 * reconnecting waits for it (0: fail at once)
	 * @param retry which calls are retried once on the next generation when the server
	 * dies under them: never, safe (read-only or idempotent tools, and retry-tools) or
	 * always; a retried call may have taken effect on the dead generation too
	 * (at-least-once)
	 * @param trustAnnotations whether the tools' readOnlyHint and idempotentHint
	 * annotations make them safe to retry
	 * @param retryTools tools (by their name on the server) that are safe to retry
	 * whatever their annotations say
	 */
	public record Call(
			@DefaultValue("5s") @DurationMin(nanos = 0, message = "must not be negative") Duration waitForRecovery,
			@DefaultValue("safe") CallPolicy.Retry retry, @DefaultValue("true") boolean trustAnnotations,
			@DefaultValue Set<String> retryTools) {

		/**
		 * Returns the call policy of the supervisor.
		 * @return the policy
		 */
		public CallPolicy toPolicy() {
			return new CallPolicy(this.waitForRecovery, this.retry, this.trustAnnotations, this.retryTools);
		}

	}

	/**
	 * The liveness probe of a connected server.
	 *
	 * @param interval time between two pings (0 disables the probe)
	 * @param timeout how long a ping may take; also the probe of a call that timed out
	 * @param failureThreshold unanswered pings in a row after which the server's process
	 * tree is killed and it is reconnected
	 */
	public record HealthCheck(
			@DefaultValue("30s") @DurationMin(nanos = 0, message = "must not be negative") Duration interval,
			@DefaultValue("5s") @DurationMin(nanos = 1, message = "must be positive") Duration timeout,
			@DefaultValue("2") @Min(1) int failureThreshold) {

		/**
		 * Returns the health-check policy of the supervisor.
		 * @return the policy
		 */
		public HealthCheckPolicy toPolicy() {
			return new HealthCheckPolicy(this.interval, this.timeout, this.failureThreshold);
		}

	}

	/**
	 * How a lost server is reconnected.
	 *
	 * @param enabled whether a lost server is reconnected automatically; when false it
	 * stays DISCONNECTED, its tools failing, until it is reset
	 * @param initialDelay delay before the first reconnect attempt of an outage; it
	 * doubles with each attempt
	 * @param maxDelay upper bound of the delay between attempts; also the stability
	 * window: a connection that stays up this long resets the attempt budget
	 * @param maxAttempts attempts per outage before the server is given up (FAILED, tools
	 * withdrawn)
	 * @param jitter fraction (0 to 1) of each delay by which it is randomly shifted
	 */
	@ValidDelays
	public record Reconnect(@DefaultValue("true") boolean enabled,
			@DefaultValue("500ms") @DurationMin(nanos = 1, message = "must be positive") Duration initialDelay,
			@DefaultValue("30s") @DurationMin(nanos = 1, message = "must be positive") Duration maxDelay,
			@DefaultValue("10") @Min(1) int maxAttempts,
			@DefaultValue("0.1") @DecimalMin("0.0") @DecimalMax("1.0") double jitter) {

		/**
		 * Returns the policy of the supervisor.
		 * @return the reconnect policy
		 */
		public ReconnectPolicy toPolicy() {
			return new ReconnectPolicy(this.enabled, this.initialDelay, this.maxDelay, this.maxAttempts, this.jitter);
		}

	}

}
